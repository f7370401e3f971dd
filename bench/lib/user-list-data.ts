// The user-list benchmark's data: a database migrated and seeded by the server's own code (so it
// is exactly what the server would make of it at its first start), plus N users in tenant demo.
import { loadConfig } from '../../apps/server/src/config';
import { migrate } from '../../apps/server/src/db/migrate';
import { seed } from '../../apps/server/src/db/seed';
import { openTarget, type Target } from '@shuili/test-support/database-target';

/**
 * Migrates and seeds the database as the server does, then adds `users` users to tenant demo in
 * two statements: each with a unique username, a nickname, a placeholder password hash (they
 * never sign in), demo's root organisation and demo's ROLE_OPERATOR role. Answers demo's id.
 * PGlite belongs to one process: the database is closed again before the server opens it.
 */
export async function prepareUsers(target: Target, users: number): Promise<string> {
  const db = await openTarget(target, 2);
  try {
    await migrate(db);
    await seed(db, loadConfig());
    const tenantId = await db.system(async (sql) => {
      const { rows } = await sql.query<{ tenant_id: string; org_id: string; role_id: string }>(
        `SELECT t.id::text AS tenant_id,
                (SELECT o.id::text FROM sys_org o WHERE o.tenant_id = t.id AND o.org_parent IS NULL
                  ORDER BY o.id LIMIT 1) AS org_id,
                (SELECT r.id::text FROM sys_role r WHERE r.tenant_id = t.id AND r.role_code = 'ROLE_OPERATOR') AS role_id
           FROM tenant t WHERE t.tenant_code = 'demo'`,
      );
      const demo = rows[0];
      if (!demo?.org_id || !demo.role_id) throw new Error('tenant demo was not seeded');
      await sql.query(
        `INSERT INTO sys_user (tenant_id, username, nickname, password_hash, org_id)
         SELECT $1, 'bench' || i, 'Bench user ' || i, 'bench-user-never-signs-in', $2
           FROM generate_series(1, $3::int) AS i`,
        [demo.tenant_id, demo.org_id, users],
      );
      await sql.query(
        `INSERT INTO sys_user_role (tenant_id, user_id, role_id)
         SELECT tenant_id, id, $2 FROM sys_user WHERE tenant_id = $1 AND username LIKE 'bench%'`,
        [demo.tenant_id, demo.role_id],
      );
      return demo.tenant_id;
    });
    // PostgreSQL's autovacuum analyses the table soon after this many inserts; PGlite runs in
    // single-user mode without autovacuum and the server never runs ANALYZE, so it stays as is.
    if (target.kind === 'postgres') await db.system((sql) => sql.exec('ANALYZE'));
    return tenantId;
  } finally {
    await db.close();
  }
}
