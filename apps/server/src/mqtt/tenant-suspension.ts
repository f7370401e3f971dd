import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { type AccessChecks, parseAccessChange } from '../modules/uaa/access-checks';
import type { DeviceTransport } from './device-transport';

/** How often a node looks for tenants whose period ran out (nothing announces that). */
export const TENANT_PERIOD_CHECK_MS = 30_000;

/** Something that forgets the device secrets it verified for a tenant (CredentialService). */
export interface TenantCredentialCache {
  forgetTenant(tenantCode: string): void;
}

/**
 * Shuts a suspended tenant's devices out on this node: when a tenant is disabled (announced by
 * the database) or its period runs out (checked every TENANT_PERIOD_CHECK_MS), the secrets this
 * node remembers for its devices are forgotten, so reconnects are checked again and refused
 * (credential checks require an active tenant), and every connection of its devices is ended.
 * Its users' sessions end in the suspension's transaction (tenant.hooks.ts), and their browsers
 * with them (MqttBroker).
 */
export class TenantSuspension {
  /** Tenants known to be suspended: shut out once, not at every check. */
  private readonly suspended = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      access: AccessChecks;
      transport: Pick<DeviceTransport, 'disconnectDevice'>;
      credentials: TenantCredentialCache;
      log: FastifyBaseLogger;
    },
  ) {}

  async start(): Promise<void> {
    this.unwatch = this.deps.access.watch((payload) => {
      const change = parseAccessChange(payload);
      if (change.kind === 'tenant') void this.check([change.tenantId]);
      else if (change.kind === 'everything') void this.check(undefined);
    });
    // Tenants suspended before this node started hold no connection here: only later ones count.
    for (const id of await this.inactiveTenants(undefined)) this.suspended.add(id);
    this.timer = setInterval(() => void this.check(undefined), TENANT_PERIOD_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.unwatch?.();
  }

  /** Shuts out those of the tenants (all when undefined) that became inactive. */
  async check(tenantIds: string[] | undefined): Promise<void> {
    try {
      const inactive = new Set(await this.inactiveTenants(tenantIds));
      for (const id of tenantIds ?? [...this.suspended]) {
        if (inactive.has(id) || !this.suspended.has(id)) continue;
        // Back in service: refusals remembered while it was suspended must not outlive that.
        this.suspended.delete(id);
        await this.forgetCredentials(id);
      }
      for (const id of inactive) {
        if (this.suspended.has(id)) continue;
        this.suspended.add(id);
        await this.shutOut(id);
        // Found by the periodic check (its period ran out): its browsers are told too.
        if (tenantIds === undefined) this.deps.access.tenantLapsed(id);
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not check for suspended tenants');
    }
  }

  private async inactiveTenants(tenantIds: string[] | undefined): Promise<string[]> {
    const { rows } = await this.deps.db.systemStatement<{ id: string }>(
      `SELECT t.id::text AS id FROM tenant t
        WHERE ($1::bigint[] IS NULL OR t.id = ANY($1::bigint[]))
          AND NOT shuili_tenant_active(t.status, t.start_time, t.end_time)`,
      [tenantIds ?? null],
    );
    return rows.map((row) => row.id);
  }

  private async forgetCredentials(tenantId: string): Promise<void> {
    const { rows } = await this.deps.db.systemStatement<{ tenant_code: string }>(
      'SELECT tenant_code FROM tenant WHERE id = $1',
      [tenantId],
    );
    if (rows[0]) this.deps.credentials.forgetTenant(rows[0].tenant_code);
  }

  private async shutOut(tenantId: string): Promise<void> {
    const { rows } = await this.deps.db.systemStatement<{
      tenant_code: string;
      device_id: string;
      device_no: string;
    }>(
      `SELECT t.tenant_code, d.id::text AS device_id, d.device_no
         FROM tenant t JOIN iot_device d ON d.tenant_id = t.id WHERE t.id = $1`,
      [tenantId],
    );
    const tenantCode = rows[0]?.tenant_code;
    if (tenantCode) this.deps.credentials.forgetTenant(tenantCode);
    for (const device of rows) {
      this.deps.transport.disconnectDevice({
        tenantId,
        tenantCode: device.tenant_code,
        deviceId: device.device_id,
        deviceNo: device.device_no,
      });
    }
    this.deps.log.info({ tenantId, devices: rows.length }, 'tenant suspended: devices shut out');
  }
}
