import type { AreaDef } from '@shuili/contract';
import type { FixedFilters } from '../../../resource/search-params';

const ACROSS_AREAS: FixedFilters = {};
const byArea = new Map<string, FixedFilters>();

/**
 * The fixed filter of an area's records (alarms, commands): its device kinds, one comma list
 * (the entity kit's `in` search on the records' computed deviceKind). None across areas: every
 * device's. One object per area, so the lists' memos keep it.
 */
export function areaKindFilter(area: AreaDef | undefined): FixedFilters {
  if (!area) return ACROSS_AREAS;
  let filter = byArea.get(area.code);
  if (!filter) byArea.set(area.code, (filter = { deviceKind: area.kinds.join(',') }));
  return filter;
}
