import { APP_ROLE, type Sql } from '../db/database';

/**
 * What would let a tenant's request see or write another tenant's rows, table by table: every
 * table with a tenant_id column (partitions included) needs row-level security on, a policy
 * that compares tenant_id with the request's app.tenant_id (every permissive one must: rows pass
 * when any permissive policy passes; restrictive ones, such as the zones', can only narrow), and — when the application role
 * owns it, since owners pass RLS unless forced — FORCE ROW LEVEL SECURITY. The role itself must
 * not bypass RLS. Answers one line per problem; none means every tenant-owned table is fenced.
 */
export async function rlsProblems(sql: Sql): Promise<{ tables: number; problems: string[] }> {
  const { rows } = await sql.query<{
    name: string;
    rls: boolean;
    forced: boolean;
    owner: string;
    policies: string[] | null;
  }>(
    `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
            pg_get_userbyid(c.relowner) AS owner,
            (SELECT array_agg(coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' / ' ||
                              coalesce(pg_get_expr(p.polwithcheck, p.polrelid), ''))
               FROM pg_policy p WHERE p.polrelid = c.oid AND p.polpermissive) AS policies
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND EXISTS (SELECT 1 FROM pg_attribute a
                     WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
      ORDER BY c.relname`,
  );
  const problems: string[] = [];
  for (const table of rows) {
    if (!table.rls) problems.push(`${table.name}: row-level security is off`);
    const policies = table.policies ?? [];
    if (policies.length === 0) problems.push(`${table.name}: no policy`);
    for (const policy of policies)
      if (!/tenant_id/.test(policy) || !/app\.tenant_id/.test(policy))
        problems.push(`${table.name}: a policy does not compare tenant_id with app.tenant_id`);
    if (table.owner === APP_ROLE && !table.forced)
      problems.push(`${table.name}: owned by ${APP_ROLE} without FORCE ROW LEVEL SECURITY`);
  }
  const role = await sql.query<{ rolsuper: boolean; rolbypassrls: boolean }>(
    'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1',
    [APP_ROLE],
  );
  if (!role.rows[0]) problems.push(`${APP_ROLE} does not exist`);
  else if (role.rows[0].rolsuper || role.rows[0].rolbypassrls)
    problems.push(`${APP_ROLE} bypasses row-level security`);
  return { tables: rows.length, problems };
}
