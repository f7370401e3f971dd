/** The bayonet area's own API (its rating curves' generic calls). */
export const BAYONET_PATH = '/api/monitor/bayonet';
/** Where rating curves are edited: a tab there. */
export const BAYONET_CONFIG_SCREEN = '/bayonet/bayonetConfiguration';

/** The surface-runoff area's own API (its events' calls). */
export const RUNOFF_PATH = '/api/monitor/sedimentFlow';
/** Where runoff events are listed and exported: under the area's data report. */
export const RUNOFF_REPORT_SCREEN = '/sedimentFlow/sedimentFlowDataReport';
