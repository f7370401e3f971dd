import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem: a batch resume (being built in this session; replaced before it lands). */
export function TraceResumePage(_props: AreaScreenProps) {
  return null;
}
