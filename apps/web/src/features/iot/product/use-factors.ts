import { entityCalls, iotFactorEntity, type PageResult } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** One entry of the factor catalogue (the quantities devices measure). */
export interface FactorRow {
  id: string;
  factorCode: string;
  factorName: string;
  unit: string | null;
  precision: number | null;
  minValue: number | null;
  maxValue: number | null;
}

/** The catalogue is small (tens of rows): one request, shared by every property dialog. */
const ALL = 10_000;

export function useFactors() {
  return useQuery({
    queryKey: ['iot', 'factors'],
    queryFn: ({ signal }) =>
      http.get<PageResult<FactorRow>>(entityCalls(iotFactorEntity).query, {
        params: { currentPage: 1, pageSize: ALL },
        signal,
      }),
    select: (page) => page.list,
    staleTime: 5 * 60_000,
  });
}
