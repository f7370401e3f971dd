import crypto from 'node:crypto';
import { deviceIdentity } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { MQTT_LIMITS } from '../../../mqtt/mqtt-limits';
import { credentialRepo } from './credential.repo';

/** A secret as handed out once: the device stores it, the server keeps only its hash. */
export interface IssuedSecret {
  deviceId: string;
  deviceNo: string;
  tenantCode: string;
  /** MQTT username and client id. */
  identity: string;
  secret: string;
}

/** Told when a device's secret stops working (rotated or revoked), so its session can end. */
export type RevocationListener = (tenantCode: string, deviceNo: string) => void;

/** 256 random bits: too many to guess, so a fast hash is enough to store them. */
function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Device credentials: generate, rotate, revoke (shown once), and verify for the broker. */
export class CredentialService {
  private readonly listeners: RevocationListener[] = [];
  /** identity -> hash of the secret that was verified and until when it is believed. */
  private readonly verified = new Map<string, { hash: Buffer; until: number }>();

  constructor(private readonly db: Database) {}

  onRevoked(listener: RevocationListener): void {
    this.listeners.push(listener);
  }

  /** Issues a new secret for a device of the tenant; the previous one stops working. */
  async reset(tenantId: string, deviceId: string): Promise<IssuedSecret> {
    const secret = newSecret();
    const device = await this.db.tenant(tenantId, async (sql) => {
      const found = await credentialRepo.lockDevice(sql, deviceId);
      if (!found) throw new AppError(404, 'error.recordNotFound');
      await credentialRepo.revoke(sql, tenantId, deviceId);
      await credentialRepo.insert(sql, tenantId, deviceId, hashSecret(secret));
      return found;
    });
    this.revoked(device.tenantCode, device.deviceNo);
    return { ...device, identity: deviceIdentity(device.tenantCode, device.deviceNo), secret };
  }

  /** Ends a device's secret without a new one: it can no longer connect until reset. */
  async revoke(tenantId: string, deviceId: string): Promise<void> {
    const device = await this.db.tenant(tenantId, async (sql) => {
      const found = await credentialRepo.lockDevice(sql, deviceId);
      if (!found) throw new AppError(404, 'error.recordNotFound');
      await credentialRepo.revoke(sql, tenantId, deviceId);
      return found;
    });
    this.revoked(device.tenantCode, device.deviceNo);
  }

  /**
   * Fresh secrets for every device of a tenant (the in-process simulator of `npm start`, which
   * must connect like any device). Previous secrets of those devices stop working.
   */
  async issueDemoCredentials(tenantCode = 'demo'): Promise<IssuedSecret[]> {
    const issued = await this.db.system(async (sql) => {
      const devices = await credentialRepo.devicesOfTenant(sql, tenantCode);
      const out: IssuedSecret[] = [];
      for (const device of devices) {
        const secret = newSecret();
        await credentialRepo.revoke(sql, device.tenantId, device.deviceId);
        await credentialRepo.insert(sql, device.tenantId, device.deviceId, hashSecret(secret));
        out.push({
          deviceId: device.deviceId,
          deviceNo: device.deviceNo,
          tenantCode,
          identity: deviceIdentity(tenantCode, device.deviceNo),
          secret,
        });
      }
      return out;
    });
    for (const device of issued) this.revoked(device.tenantCode, device.deviceNo);
    return issued;
  }

  /**
   * Whether the secret is the device's live one. A success is remembered briefly: devices that
   * reconnect in a storm (a gateway rebooting, a cell tower back) do not each cost a query.
   */
  async verify(tenantCode: string, deviceNo: string, secret: string): Promise<boolean> {
    const identity = deviceIdentity(tenantCode, deviceNo);
    const offered = crypto.createHash('sha256').update(secret, 'utf8').digest();
    const cached = this.verified.get(identity);
    if (cached && cached.until > Date.now() && crypto.timingSafeEqual(cached.hash, offered))
      return true;
    const stored = await this.db.system((sql) =>
      credentialRepo.liveHash(sql, tenantCode, deviceNo),
    );
    if (!stored) return false;
    const expected = Buffer.from(stored, 'hex');
    if (expected.length !== offered.length || !crypto.timingSafeEqual(expected, offered))
      return false;
    if (this.verified.size > 100_000) this.verified.clear();
    this.verified.set(identity, {
      hash: offered,
      until: Date.now() + MQTT_LIMITS.credentialCacheMs,
    });
    return true;
  }

  /** For the device entity's delete hook: no foreign key removes the rows. */
  async forgetDevice(tenantId: string, deviceId: string): Promise<void> {
    await this.db.tenant(tenantId, (sql) => credentialRepo.deleteOfDevice(sql, tenantId, deviceId));
  }

  private revoked(tenantCode: string, deviceNo: string): void {
    this.verified.delete(deviceIdentity(tenantCode, deviceNo));
    for (const listener of this.listeners) listener(tenantCode, deviceNo);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Device secrets (app.ts creates it; the simulator's issueDemoCredentials). */
    deviceCredentials: CredentialService;
  }
}
