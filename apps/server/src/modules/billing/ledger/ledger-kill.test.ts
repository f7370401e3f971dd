import crypto from 'node:crypto';
import { entityCalls, householdEntity, LEDGER_CALLS, priceClassEntity } from '@shuili/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn } from '@shuili/test-support/api-client';
import { createFreshTarget, openTarget } from '@shuili/test-support/database-target';
import { startIotServer, type RunningIotServer } from '@shuili/test-support/iot-server';
import { BACKENDS } from '@shuili/test-support/test-server';
import { sampleIdNumber } from '../../../entity/billing-setup-samples';
import { killHard, waitFor } from '../../../security/faults/process-kill';
import { auditLedger, soundAudit } from './ledger-test-kit';

/** Recharges answered 200 before the kill (then a random moment more). */
const COMMITTED_BEFORE_KILL = 20;
const WORKERS = 6;
const HOUSEHOLDS = 12;

/** Households added through the card users' calls (a price class first). */
async function addHouseholds(url: string, count: number): Promise<string[]> {
  const token = (await signIn({ url }, 'demo', 'admin', 'admin123')).access_token;
  const add = async (path: string, body: object) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { data: { id: string } };
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer.data.id;
  };
  const priceClassId = await add(entityCalls(priceClassEntity).add, {
    className: 'Grain (ledger kill)',
    basePrice: 3,
    quotaPerMu: 300,
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1)
    ids.push(
      await add(entityCalls(householdEntity).add, {
        householdName: `Kill household ${i}`,
        idNumber: sampleIdNumber(String(4_000_000 + i)),
        village: 'Dongzhuang',
        irrigatedArea: 10,
        priceClassId,
      }),
    );
  return ids;
}

interface Recharge {
  idempotencyKey: string;
  householdId: string;
  amountFen: number;
  /** The answer's status; 0: none (the server died first). */
  status: number;
}

/**
 * kill -9 of the real server process while cashiers recharge (issue 20 item 7): after a restart on
 * the same database every recharge is whole (its transaction and both postings) or absent, every
 * one answered 200 is there, the ledger balances, and sending the unanswered ones again (the
 * client's retry with the same key) posts each exactly once: the balances are then the sum of
 * all recharges, each counted once.
 */
describe.each(BACKENDS)('kill -9 during recharges ($backend)', ({ backend, available }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it.skipIf(!available)(
    'each recharge is whole or absent, and a retry posts it once',
    async () => {
      const { target, remove } = await createFreshTarget(backend);
      cleanups.push(remove);
      let server: RunningIotServer = await startIotServer(target);
      cleanups.push(() => server.stop());
      const households = await addHouseholds(server.url, HOUSEHOLDS);
      const send = async (recharge: Recharge) => {
        const token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
        const response = await fetch(`${server.url}${LEDGER_CALLS.recharge}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            householdId: recharge.householdId,
            amountFen: recharge.amountFen,
            method: 'cash',
            idempotencyKey: recharge.idempotencyKey,
          }),
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      const token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      const post = async (recharge: Recharge) => {
        const response = await fetch(`${server.url}${LEDGER_CALLS.recharge}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            householdId: recharge.householdId,
            amountFen: recharge.amountFen,
            method: 'cash',
            idempotencyKey: recharge.idempotencyKey,
          }),
        });
        return response.status;
      };
      const recharges: Recharge[] = [];
      let killed = false;
      const worker = async (w: number) => {
        for (let n = 0; !killed; n += 1) {
          const recharge: Recharge = {
            idempotencyKey: crypto.randomUUID(),
            householdId: households[(w * 7 + n) % HOUSEHOLDS]!,
            amountFen: 100 + ((w * 131 + n * 17) % 900),
            status: 0,
          };
          recharges.push(recharge);
          recharge.status = await post(recharge).catch(() => 0);
        }
      };
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
      const answered = () => recharges.filter((recharge) => recharge.status === 200).length;
      await waitFor(
        `${COMMITTED_BEFORE_KILL} answered recharges`,
        () => answered() >= COMMITTED_BEFORE_KILL,
        120_000,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
      killed = true;
      await killHard(server.pid);
      await Promise.all(workers);
      expect(
        recharges.filter((recharge) => recharge.status !== 200 && recharge.status !== 0),
      ).toEqual([]);

      // What the database kept, read after a restart (PGlite replays its log on opening).
      server = await startIotServer(target);
      await server.stop();
      const db = await openTarget(target, 2);
      const kept = await db.system(async (sql) => {
        const audit = await auditLedger(sql);
        const { rows } = await sql.query<{ key: string; postings: number }>(
          `SELECT t.idempotency_key AS key, count(p.id)::int AS postings
             FROM billing_txn t LEFT JOIN billing_posting p ON p.txn_id = t.id
            WHERE t.household_id = ANY($1::bigint[])
            GROUP BY t.id`,
          [households],
        );
        return { audit, rows };
      });
      await db.close();
      const inDatabase = new Map(kept.rows.map((row) => [row.key, row.postings]));
      console.log(
        `fault kill -9 recharges (${backend}): ${JSON.stringify({
          fired: recharges.length,
          answered: answered(),
          inDatabase: inDatabase.size,
          unansweredKept: recharges.filter(
            (r) => r.status === 0 && inDatabase.has(r.idempotencyKey),
          ).length,
        })}`,
      );
      expect(kept.audit).toEqual(soundAudit(kept.audit));
      // Whole: every transaction has both its postings.
      expect([...inDatabase.values()].filter((postings) => postings !== 2)).toEqual([]);
      // Nothing answered is lost; nothing that was never sent is there.
      expect(
        recharges.filter((r) => r.status === 200 && !inDatabase.has(r.idempotencyKey)),
      ).toEqual([]);
      const sent = new Set(recharges.map((r) => r.idempotencyKey));
      expect([...inDatabase.keys()].filter((k) => !sent.has(k))).toEqual([]);

      // The cashiers' clients retry what got no answer, with the same keys.
      server = await startIotServer(target);
      const unanswered = recharges.filter((r) => r.status !== 200);
      const retried = await Promise.all(unanswered.map((r) => send(r)));
      expect(retried.map((answer) => answer.status)).toEqual(retried.map(() => 200));
      // Those the database had kept are replayed, the others posted now.
      expect(retried.map((answer) => answer.body.data.replayed)).toEqual(
        unanswered.map((r) => inDatabase.has(r.idempotencyKey)),
      );
      const expected = new Map<string, number>();
      for (const r of recharges)
        expected.set(r.householdId, (expected.get(r.householdId) ?? 0) + r.amountFen);
      const adminToken = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      for (const householdId of households) {
        const response = await fetch(
          `${server.url}${LEDGER_CALLS.balance}?householdId=${householdId}`,
          { headers: { authorization: `Bearer ${adminToken}` } },
        );
        const { data } = (await response.json()) as { data: { availableFen: number } };
        expect(data.availableFen, householdId).toBe(expected.get(householdId) ?? 0);
      }
      await server.stop();
    },
    300_000,
  );
});
