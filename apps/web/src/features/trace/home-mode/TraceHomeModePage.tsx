import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem: the public page settings (being built in this session; replaced before it lands). */
export function TraceHomeModePage(_props: AreaScreenProps) {
  return null;
}
