import crypto from 'node:crypto';
import {
  entityCalls,
  iotDeviceEntity,
  iotProductEntity,
  sysOrgEntity,
  sysRoleEntity,
  sysTenantEntity,
  sysUserEntity,
} from '@shuili/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createFreshTarget } from '@shuili/test-support/database-target';
import { prepareDevices } from '@shuili/test-support/ingest-data';
import { startIotServer, type RunningIotServer } from '@shuili/test-support/iot-server';
import { signIn } from '@shuili/test-support/api-client';
import { BACKENDS } from '@shuili/test-support/test-server';
import { readAdminWrites } from './admin-write-invariants';
import { killHard, waitFor } from './process-kill';

/** Writes answered 200 before the kill (then a random moment more). */
const COMMITTED_BEFORE_KILL = 8;
const PASSWORD = 'Fault-tolerant-9f3k!x';

interface Write {
  kind: 'tenant' | 'user' | 'device' | 'rotation';
  name: string;
  /** 200 received: committed, must be there after the restart. */
  committed: boolean;
  /** The answer's status; 0: none (the server died first). */
  status?: number;
}

/**
 * Fault 2 (issue 7 part 4): kill -9 the server while administrators write: tenant provisioning
 * (tenant, organisation, roles, menus, dictionaries, URL list, catalogue and its administrator
 * in one transaction), users added with roles, devices added, device secrets rotated (revoke the
 * old, store the new). After a restart on the same database, no aggregate is half written and
 * every write that was answered is there.
 */
describe.each(BACKENDS)('kill -9 during admin writes ($backend)', ({ backend, available }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it.skipIf(!available)(
    'no half-written aggregate and nothing answered is lost',
    async () => {
      const { target, remove } = await createFreshTarget(backend);
      cleanups.push(remove);
      const prefix = `flt${crypto.randomBytes(3).toString('hex')}`;
      await prepareDevices(target, 8);
      let server: RunningIotServer = await startIotServer(target);
      cleanups.push(() => server.stop());
      const url = server.url;
      // The platform tenant's administrator signs in with a second factor (the helper enrols it).
      const platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
      const demo = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      const call = async (token: string, method: string, route: string, body?: object) => {
        const response = await fetch(`${url}${route}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      const list = async (route: string, query = '') =>
        (await call(demo, 'GET', `${route}?page=1&pageSize=100${query}`)).body.data.list as any[];
      const roleId = (await list(entityCalls(sysRoleEntity).query)).find(
        (role) => role.roleCode === 'ROLE_OPERATOR',
      ).id;
      const orgId = (await list(entityCalls(sysOrgEntity).query))[0].id;
      const productId = (await list(entityCalls(iotProductEntity).query))[0].id;
      const deviceIds = (await list(entityCalls(iotDeviceEntity).query)).map((d) => d.id);

      const writes: Write[] = [];
      let n = 0;
      const fire = async (kind: Write['kind'], send: (name: string) => Promise<number>) => {
        const write: Write = { kind, name: `${prefix}${n++}`, committed: false };
        writes.push(write);
        // No answer (the server died) or an error: not committed as far as the caller knows.
        write.status = await send(write.name).catch(() => 0);
        write.committed = write.status === 200;
      };
      let killed = false;
      const worker = async (kind: Write['kind'], send: (name: string) => Promise<number>) => {
        while (!killed) await fire(kind, send);
      };
      const senders: Record<Write['kind'], (name: string) => Promise<number>> = {
        tenant: async (name) =>
          (
            await call(platform, 'POST', entityCalls(sysTenantEntity).add, {
              tenantCode: name,
              tenantName: `Fault ${name}`,
              adminUsername: 'boss',
              adminPassword: PASSWORD,
            })
          ).status,
        user: async (name) =>
          (
            await call(demo, 'POST', entityCalls(sysUserEntity).add, {
              username: name,
              nickname: name,
              password: PASSWORD,
              orgId,
              roleIds: [roleId],
            })
          ).status,
        device: async (name) =>
          (
            await call(demo, 'POST', entityCalls(iotDeviceEntity).add, {
              deviceNo: name.toUpperCase(),
              deviceName: name,
              productId,
              status: 0,
            })
          ).status,
        rotation: async () =>
          (
            await call(demo, 'POST', '/api/iot/device/resetDeviceSecret', {
              id: deviceIds[Math.floor(Math.random() * deviceIds.length)],
            })
          ).status,
      };
      const workers = [
        worker('tenant', senders.tenant),
        worker('tenant', senders.tenant),
        worker('user', senders.user),
        worker('user', senders.user),
        worker('device', senders.device),
        worker('rotation', senders.rotation),
        worker('rotation', senders.rotation),
      ];
      const committed = () => writes.filter((write) => write.committed).length;
      // Every kind committed at least once, so the kill lands among writes that do commit.
      await waitFor(
        `${COMMITTED_BEFORE_KILL} committed writes of every kind`,
        () =>
          committed() >= COMMITTED_BEFORE_KILL &&
          (['tenant', 'user', 'device', 'rotation'] as const).every((kind) =>
            writes.some((write) => write.kind === kind && write.committed),
          ),
        120_000,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      killed = true;
      await killHard(server.pid);
      await Promise.all(workers);

      server = await startIotServer(target);
      await server.stop();
      const state = await readAdminWrites(target, prefix);
      const lostAnswered = writes.filter(
        (write) =>
          write.committed &&
          !(write.kind === 'tenant'
            ? state.tenantCodes.has(write.name)
            : write.kind === 'user'
              ? state.usernames.has(write.name)
              : write.kind === 'device'
                ? state.deviceNos.has(write.name.toUpperCase())
                : true),
      );
      const byKind = (kind: Write['kind']) => ({
        fired: writes.filter((write) => write.kind === kind).length,
        answered: writes.filter((write) => write.kind === kind && write.committed).length,
        statuses: writes
          .filter((write) => write.kind === kind)
          .map((write) => write.status ?? 'pending')
          .join(','),
      });
      console.log(
        `fault kill -9 admin writes (${backend}): ${JSON.stringify({
          fired: writes.length,
          answered: committed(),
          inDatabase: {
            tenants: state.tenantCodes.size,
            users: state.usernames.size,
            devices: [...state.deviceNos].filter((no) => no.startsWith(prefix.toUpperCase()))
              .length,
          },
          tenant: byKind('tenant'),
          user: byKind('user'),
          device: byKind('device'),
          rotation: byKind('rotation'),
          halfWritten:
            state.halfTenants.length + state.usersWithoutRole.length + state.badCredentials.length,
          lostAnswered: lostAnswered.length,
        })}`,
      );
      expect(state.halfTenants).toEqual([]);
      expect(state.usersWithoutRole).toEqual([]);
      expect(state.badCredentials).toEqual([]);
      expect(lostAnswered).toEqual([]);
    },
    180_000,
  );
});
