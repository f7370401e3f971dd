// The list call of any entity as the server's query handler runs it for ROLE_ADMIN (every field
// visible), reduced to what reaches the database: one ListPage for entityRepo.page.
import type { EntityDef } from '@shuili/contract';
import type { Database } from '../../apps/server/src/db/database';
import { entityRepo, type ListPage, type Row } from '../../apps/server/src/entity/entity-repo';
import { filterOf } from '../../apps/server/src/entity/entity-routes';

export interface ListCall {
  page: ListPage;
  currentPage: number;
  pageSize: number;
}

/** The page the handler asks entityRepo for, from the call's query string (no sort parameters). */
export function listCallOf(entity: EntityDef, search: URLSearchParams): ListCall {
  const currentPage = Number(search.get('currentPage') ?? 1);
  const pageSize = Number(search.get('pageSize') ?? 10);
  const query: Record<string, unknown> & { currentPage: number; pageSize: number } = {
    currentPage,
    pageSize,
  };
  for (const [name, value] of search) if (!(name in query)) query[name] = value;
  const filter = filterOf(entity, query, undefined);
  return {
    currentPage,
    pageSize,
    page: {
      ...filter,
      sort: entity.defaultSort.field,
      order: entity.defaultSort.order,
      limit: pageSize,
      offset: (currentPage - 1) * pageSize,
    },
  };
}

/**
 * Runs the call's SQL (the server's own entityRepo.page, so it follows any change there) in the
 * tenant's transaction (SET LOCAL ROLE + app.tenant_id, RLS), answering the page's envelope.
 */
export async function runListCall(
  db: Database,
  tenantId: string,
  entity: EntityDef,
  call: ListCall,
): Promise<{ code: number; message: string; data: { list: Row[]; total: number } }> {
  const { rows, total } = await db.tenant(tenantId, (sql) =>
    entityRepo.page(sql, entity, call.page),
  );
  return {
    code: 200,
    message: 'success',
    data: { list: rows, total, currentPage: call.currentPage, pageSize: call.pageSize } as never,
  };
}
