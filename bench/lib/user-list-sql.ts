// The SQL of one page of the user list, recorded from the server's own entity code.
import { sysUserEntity as entity } from '@shuili/contract';
import type { Sql } from '../../apps/server/src/db/database';
import { entityRepo } from '../../apps/server/src/entity/entity-repo';
import { filterOf } from '../../apps/server/src/entity/entity-routes';

export interface Statement {
  text: string;
  values: unknown[];
}

/** The count and page statements the server's query handler issues for these parameters. */
export async function pageStatements(search: URLSearchParams) {
  const currentPage = Number(search.get('currentPage') ?? 1);
  const pageSize = Number(search.get('pageSize') ?? 10);
  const query: Record<string, unknown> & { currentPage: number; pageSize: number } = {
    currentPage,
    pageSize,
  };
  for (const [name, value] of search) if (!(name in query)) query[name] = value;
  const recorded: Statement[] = [];
  const recorder: Sql = {
    query: async (text, values) => {
      recorded.push({ text, values: values ?? [] });
      return { rows: [{ total: 0 }] as never[] };
    },
    exec: async () => {},
  };
  // As the handler does for ROLE_ADMIN (every field visible) without sort parameters.
  const filter = filterOf(entity, query, undefined);
  await entityRepo.count(recorder, entity, filter);
  await entityRepo.list(recorder, entity, {
    ...filter,
    sort: entity.defaultSort.field,
    order: entity.defaultSort.order,
    limit: pageSize,
    offset: (currentPage - 1) * pageSize,
  });
  const [count, list] = recorded as [Statement, Statement];
  return { count, list, currentPage, pageSize };
}
