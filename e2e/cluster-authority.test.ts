import crypto from 'node:crypto';
import {
  DEVICE_FILE_CALLS,
  entityCalls,
  iotDeviceEntity,
  sysTenantEntity,
  sysUserEntity,
} from '@shuili/contract';
import type { Database } from '@shuili/server/db/database';
import { openPostgresDatabase } from '@shuili/server/db/postgres-database';
import {
  expectOncePerSecond,
  instancesByNode,
  secondlyJobRun,
  startHookService,
  type HookService,
} from '@shuili/server/modules/jobs/jobs-test-kit';
import { expectRotationRunsOnce } from '@shuili/server/modules/monitor/irrigation/irrigation-test-kit';
import { addDemoUser } from '@shuili/server/security/demo-user';
import { addUser, call, freshIp, requestToken, signIn } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rigUnavailable, startRig, type Rig, type RigNode } from '../scripts/cluster/rig';

/**
 * Several nodes behave as one (issue 23): on three server nodes behind nginx, on one PostgreSQL
 * and an external Mosquitto, what is changed, counted, stored or scheduled on one node holds on
 * the others. Access changes reach the other nodes within 1 s: that is the behaviour issue 8's
 * announcements promise (the database announces each change as it commits; every node forgets
 * what it remembered), so the checks poll with that bound rather than measure a speed.
 */
const unavailable = await rigUnavailable();
if (unavailable) console.warn(`cluster authority tests skipped: ${unavailable}`);

/** The bound of issue 8's mechanism: an announced change holds on every node within it. */
const ANNOUNCED_MS = 1_000;

describe.skipIf(!!unavailable)('three nodes behind nginx act as one', () => {
  let rig: Rig;
  let db: Database;
  let admin: string;
  let hook: HookService;
  let a: RigNode, b: RigNode, c: RigNode;
  /** Node A with the database, as the suites' user fixtures take a server. */
  let onA: { url: string; db: Database };

  beforeAll(async () => {
    hook = await startHookService();
    const started = Date.now();
    rig = await startRig({
      // The job test's webhooks go to a local service.
      env: { JOB_WEBHOOK_HOSTS: '127.0.0.1', SCHEDULER_RETRY_BASE_MS: '200' },
    });
    console.info(`rig of ${rig.nodes.length} nodes started in ${Date.now() - started} ms`);
    [a, b, c] = rig.nodes as [RigNode, RigNode, RigNode];
    db = await openPostgresDatabase(rig.databaseUrl, 3);
    onA = { url: a.url, db };
    // Through nginx, as a browser signs in.
    admin = (await signIn(rig, 'demo', 'admin', 'admin123')).access_token;
  }, 300_000);

  afterAll(async () => {
    await db?.close();
    await rig?.stop();
    await hook?.close();
  }, 120_000);

  /** Every one of the nodes answers `status` within the bound (polled at once, side by side). */
  const onEveryNodeWithin = (
    nodes: RigNode[],
    read: (node: RigNode) => Promise<number>,
    status: number,
  ) =>
    Promise.all(
      nodes.map((node) =>
        expect.poll(() => read(node), { timeout: ANNOUNCED_MS, interval: 50 }).toBe(status),
      ),
    );

  const whoAmI = (node: RigNode, token: string) =>
    call(node, 'GET', '/api/uaa/users/getSysUser', { token }).then((r) => r.status);
  const users = (node: RigNode, token: string) =>
    call(node, 'GET', entityCalls(sysUserEntity).query, { token }).then((r) => r.status);
  const devices = (node: RigNode, token: string) =>
    call(node, 'GET', entityCalls(iotDeviceEntity).query, { token }).then((r) => r.status);

  const roleId = async (code: string) =>
    (
      await db.systemStatement<{ id: string }>(
        `SELECT r.id::text FROM sys_role r JOIN tenant t ON t.id = r.tenant_id
          WHERE t.tenant_code = 'demo' AND r.role_code = $1`,
        [code],
      )
    ).rows[0]!.id;

  it('a session ended on one node is refused on the others within 1 s', async () => {
    const user = await addDemoUser(onA, admin, ['ROLE_OPERATOR']);
    // The other nodes hold the session now (remembered between requests).
    for (const node of [b, c]) expect(await whoAmI(node, user.token)).toBe(200);
    const removed = await call(a, 'POST', '/api/admin/sysuser/removePrincipal', {
      token: admin,
      body: { username: user.username },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data.revoked).toBe(1);
    await onEveryNodeWithin([b, c], (node) => whoAmI(node, user.token), 401);
  });

  it('a role taken away on one node is refused on the others within 1 s', async () => {
    const user = await addDemoUser(onA, admin, ['ROLE_ADMIN']);
    for (const node of [b, c]) expect(await users(node, user.token)).toBe(200);
    const demoted = await call(a, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
      token: admin,
      body: { userId: user.id, roleIds: [await roleId('ROLE_OPERATOR')] },
    });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    await onEveryNodeWithin([b, c], (node) => users(node, user.token), 403);
  });

  it('a tenant suspended on one node has its tokens refused on the others within 1 s', async () => {
    const acmeAdmin = (await signIn(b, 'acme', 'admin', 'admin123')).access_token;
    for (const node of [b, c]) expect(await whoAmI(node, acmeAdmin)).toBe(200);
    const platform = (await signIn(a, 'platform', 'admin', 'admin123')).access_token;
    const acmeId = (
      await db.systemStatement<{ id: string }>(
        `SELECT id::text FROM tenant WHERE tenant_code = 'acme'`,
      )
    ).rows[0]!.id;
    const suspend = (status: number) =>
      call(a, 'POST', entityCalls(sysTenantEntity).status, {
        token: platform,
        body: { ids: [acmeId], status },
      });
    const suspended = await suspend(0);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    try {
      await onEveryNodeWithin([b, c], (node) => whoAmI(node, acmeAdmin), 401);
    } finally {
      expect((await suspend(1)).status).toBe(200);
    }
  });

  it('a grant given and taken from a role on one node holds on the others within 1 s', async () => {
    const { token, roleId: role } = await noGrantUser(onA, 'cluster');
    for (const node of [b, c]) expect(await devices(node, token)).toBe(403);
    const url = (
      await db.systemStatement<{ id: string }>(
        `SELECT u.id::text FROM sys_url u JOIN tenant t ON t.id = u.tenant_id
          WHERE t.tenant_code = 'demo' AND u.url = $1`,
        [entityCalls(iotDeviceEntity).query],
      )
    ).rows[0]!.id;
    const grant = (urlIds: string[]) =>
      call(a, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
        token: admin,
        body: { roleId: role, urlIds },
      });
    const granted = await grant([url]);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    await onEveryNodeWithin([b, c], (node) => devices(node, token), 200);
    const taken = await grant([]);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    await onEveryNodeWithin([b, c], (node) => devices(node, token), 403);
  });

  it('wrong passwords spread over the nodes meet the one limit a single node sets', async () => {
    await addUser(onA, 'demo', 'cluster-owner', 'right-password-1');
    const attacker = freshIp();
    const guess = (node: RigNode, password: string) =>
      requestToken(
        node,
        {
          grant_type: 'password',
          type: 'account',
          tenantCode: 'demo',
          username: 'cluster-owner',
          password,
        },
        { ip: attacker },
      ).then((r) => r.status);
    // Ten attempts of one address at one account (RATE_RULES.signInPerAccountAndIp), one node
    // after the other; the growing waits between them are skipped, the count is not.
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect(await guess(rig.nodes[attempt % 3]!, `guess-${attempt}`)).toBe(400);
      await db.systemStatement(
        `UPDATE rate_limit SET locked_until = now() WHERE key LIKE 'login-from:%' AND hits > 0`,
      );
    }
    // The eleventh is refused on every node, even with the right password.
    for (const node of rig.nodes) expect(await guess(node, 'right-password-1')).toBe(429);
    // The owner from elsewhere still signs in, through nginx.
    const owner = await requestToken(rig, {
      grant_type: 'password',
      type: 'account',
      tenantCode: 'demo',
      username: 'cluster-owner',
      password: 'right-password-1',
    });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });

  it('code sends are counted across the nodes, per number and per address', async () => {
    const send = (node: RigNode, mobile: string, ip: string) =>
      call(node, 'GET', '/api/account/captcha/getSmsCaptcha', { query: { mobile }, ip }).then(
        (r) => r.status,
      );
    const mobile = () => `+86139${crypto.randomInt(10_000_000, 99_999_999)}`;
    // One code a minute per number, whichever node is asked.
    const number = mobile();
    expect(await send(a, number, freshIp())).toBe(200);
    for (const node of [b, c]) expect(await send(node, number, freshIp())).toBe(429);
    // Twenty codes an hour per address (RATE_RULES.captchaSendsPerIp), spread over the nodes.
    const ip = freshIp();
    for (let sent = 0; sent < 20; sent += 1)
      expect(await send(rig.nodes[sent % 3]!, mobile(), ip)).toBe(200);
    for (const node of rig.nodes) expect(await send(node, mobile(), ip)).toBe(429);
  });

  it('a file uploaded through one node is served by the others', async () => {
    const listed = await call(a, 'GET', entityCalls(iotDeviceEntity).query, { token: admin });
    const deviceId = String(listed.body.data.list[0].id);
    // A text file (its content must match its type): 256 KB of hex, different every run.
    const bytes = Buffer.from(crypto.randomBytes(128 * 1024).toString('hex'));
    const url = new URL(DEVICE_FILE_CALLS.upload, a.url);
    url.search = new URLSearchParams({
      deviceId,
      fileName: 'cluster.txt',
      fileKind: 'file',
    }).toString();
    const uploaded = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    const body = (await uploaded.json()) as { data: { id: string } };
    expect(uploaded.status, JSON.stringify(body)).toBe(200);
    for (const where of [b, c, rig]) {
      const download = new URL(DEVICE_FILE_CALLS.download, where.url);
      download.searchParams.set('id', String(body.data.id));
      const served = await fetch(download, { headers: { authorization: `Bearer ${admin}` } });
      expect(served.status, where.url).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes), where.url).toBe(true);
    }
  });

  it('a job firing every second makes one instance a second across the nodes', async () => {
    const run = await secondlyJobRun(rig, db, admin, hook, 10);
    expectOncePerSecond(run);
    console.info(
      `rig, exactly once: ${run.seconds} occurrences → ${run.made.length} instances; fired by ${JSON.stringify(
        run.fired,
      )}; run by ${JSON.stringify(Object.fromEntries(instancesByNode(run)))}`,
    );
  }, 120_000);

  it('an irrigation rotation runs each start and step once on the rig', async () => {
    await expectRotationRunsOnce(rig, db, admin);
  }, 60_000);
});
