import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem: the digital map (being built in this session; replaced before it lands). */
export function DigitalMapPage(_props: AreaScreenProps) {
  return null;
}
