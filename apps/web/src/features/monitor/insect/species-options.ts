import { entityCalls, insectSpeciesEntity } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** A species as the label editor offers it. */
export interface SpeciesOption {
  id: string;
  nameZh: string;
  nameLatin: string;
}

/** The catalogue's enabled species (a district's catalogue is a few dozen), by Chinese name. */
export function useSpeciesOptions() {
  return useQuery({
    queryKey: ['insect', 'speciesOptions'],
    queryFn: async ({ signal }) => {
      const page = await http.get<{ list: Array<Record<string, unknown>> }>(
        entityCalls(insectSpeciesEntity).query,
        { params: { status: 1, currentPage: 1, pageSize: 500 }, signal },
      );
      return page.list.map((row): SpeciesOption => ({
        id: String(row['id']),
        nameZh: String(row['nameZh'] ?? ''),
        nameLatin: String(row['nameLatin'] ?? ''),
      }));
    },
    staleTime: 60_000,
  });
}
