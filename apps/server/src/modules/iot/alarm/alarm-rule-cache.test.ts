import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  otherNodeDatabase,
  startTestServer,
  type TestServer,
} from '@shuili/test-support/test-server';
import type { Database } from '../../../db/database';
import { AlarmRuleCache } from './alarm-rule-cache';

/**
 * Alarm rules across nodes (docs/scaling.md "What each node keeps to itself"): a node that
 * remembers a tenant's rules reads them again as soon as a rule changes, whoever changed it (on
 * PostgreSQL the other cache is on a database connection of its own, as another node's is).
 */
describe.each(BACKENDS)('alarm rules remembered per node on $backend', ({ backend, available }) => {
  let server: TestServer;
  let otherDb: Database;
  let tenantId: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    otherDb = await otherNodeDatabase(server);
    const { rows } = await server.db.systemStatement<{ id: string }>(
      "SELECT id::text FROM tenant WHERE tenant_code = 'demo'",
    );
    tenantId = rows[0]!.id;
  }, 120_000);
  afterAll(async () => {
    if (otherDb !== server?.db) await otherDb?.close();
    await server?.close();
  });

  it.skipIf(!available)(
    'a rule changed elsewhere is read again as it commits, not when its entry expires (30 s)',
    async () => {
      const cache = new AlarmRuleCache(otherDb);
      await cache.start();
      try {
        // Listening, so it remembers: only the announcement can make it read again.
        expect(cache.listening).toBe(true);
        const before = (await cache.rules(tenantId)).length;
        expect(before).toBeGreaterThan(0);
        // Another node's write, straight to the table: no hook of this process hears of it.
        await server.db.systemStatement(
          `UPDATE iot_alarm_rule SET status = 0
          WHERE id = (SELECT id FROM iot_alarm_rule WHERE tenant_id = $1 AND status = 1
                       ORDER BY id LIMIT 1)`,
          [tenantId],
        );
        await expect
          .poll(async () => (await cache.rules(tenantId)).length, { interval: 50 })
          .toBe(before - 1);
      } finally {
        await cache.close();
      }
    },
  );
});
