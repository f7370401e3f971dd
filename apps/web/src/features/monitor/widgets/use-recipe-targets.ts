import type { AreaDef, PageResult } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { SET_RECIPE, recipeTargetsOf, type CommandRecord } from './recipe-targets';
import { useAreaSettings } from './use-area-settings';

/** Recipes looked at: the newest accepted one is almost always among the last few sent. */
const RECENT = 10;

/**
 * A fertigation machine's EC and pH targets (the recipe it last accepted, from its operation
 * records) and the bands around them (the area's ecBand / phBand settings).
 */
export function useRecipeTargets(area: AreaDef, deviceId: string) {
  const settings = useAreaSettings(area, deviceId);
  const records = useQuery({
    queryKey: ['monitor', 'recipe', deviceId],
    queryFn: ({ signal }) =>
      http.get<PageResult<CommandRecord>>('/api/iot/command/queryCommand', {
        params: { deviceId, name: SET_RECIPE, currentPage: 1, pageSize: RECENT },
        signal,
        silent: true,
      }),
    staleTime: 60_000,
    retry: false,
  });
  const targets = recipeTargetsOf(records.data?.list ?? []);
  return {
    ...targets,
    ecBand: Number(settings.value('ecBand') ?? 0.5),
    phBand: Number(settings.value('phBand') ?? 0.5),
  };
}
