import type { AreaDeviceQuery } from '@shuili/contract';
import type { LabeledValue } from '../../../resource/form-values';

/** What the area screens' filter bar holds (the project keeps its name for the select). */
export interface AreaDeviceFilterValues {
  zoneId?: string;
  project?: LabeledValue;
  status?: 'normal' | 'fault';
  online?: 'true' | 'false';
  text?: string;
}

/** The filters as the area device list's query parameters. */
export function filterQuery(
  filters: AreaDeviceFilterValues,
): Omit<AreaDeviceQuery, 'area' | 'currentPage' | 'pageSize'> {
  return {
    zoneId: filters.zoneId,
    projectId: filters.project?.value,
    status: filters.status,
    online: filters.online,
    text: filters.text?.trim() || undefined,
  };
}
