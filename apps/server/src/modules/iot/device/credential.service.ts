import crypto from 'node:crypto';
import { deviceIdentity } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { AUTH_LIMITS, AuthGate } from '../../../mqtt/auth-gate';
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
  /** identity -> hash of the last secret refused and until when it is refused from memory. */
  private readonly refused = new Map<string, { hash: Buffer; until: number }>();
  /** Checks in flight by epoch, identity and offered hash: callers asking the same share one. */
  private readonly pending = new Map<string, Promise<boolean>>();
  /** Counts revocations: a check that started before one must not leave a "valid" behind. */
  private epoch = 0;
  private readonly gate = new AuthGate();

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
   * Whether the secret is the device's live one. A success is remembered briefly and so is a
   * refusal of that same secret; devices that reconnect in a storm (a gateway rebooting, a cell
   * tower back) share one query per identity and wait behind a few database slots, and a check
   * that cannot get one in time throws AuthBusyError (the broker answers "server unavailable").
   */
  async verify(tenantCode: string, deviceNo: string, secret: string): Promise<boolean> {
    const identity = deviceIdentity(tenantCode, deviceNo);
    const offered = crypto.createHash('sha256').update(secret, 'utf8').digest();
    const now = Date.now();
    if (remembered(this.verified.get(identity), offered, now)) return true;
    if (remembered(this.refused.get(identity), offered, now)) return false;
    const epoch = this.epoch;
    const key = `${epoch}\0${identity}\0${offered.toString('hex')}`;
    const running = this.pending.get(key);
    if (running) return running;
    const check = this.gate
      .run(() => this.db.system((sql) => credentialRepo.liveHash(sql, tenantCode, deviceNo)))
      .then((stored) => {
        const expected = stored ? Buffer.from(stored, 'hex') : undefined;
        const valid =
          expected !== undefined &&
          expected.length === offered.length &&
          crypto.timingSafeEqual(expected, offered);
        // A revocation while the query ran: its answer may predate it, so it is not kept.
        if (epoch !== this.epoch) return valid;
        const cache = valid ? this.verified : this.refused;
        if (cache.size > AUTH_LIMITS.maxCacheEntries) cache.clear();
        const ttl = valid ? MQTT_LIMITS.credentialCacheMs : AUTH_LIMITS.deniedCacheMs;
        cache.set(identity, { hash: offered, until: Date.now() + ttl });
        if (valid) this.refused.delete(identity);
        return valid;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, check);
    return check;
  }

  /** For the device entity's delete hook: no foreign key removes the rows. */
  async forgetDevice(tenantId: string, deviceId: string): Promise<void> {
    await this.db.tenant(tenantId, (sql) => credentialRepo.deleteOfDevice(sql, tenantId, deviceId));
  }

  private revoked(tenantCode: string, deviceNo: string): void {
    this.epoch += 1;
    this.verified.delete(deviceIdentity(tenantCode, deviceNo));
    this.refused.delete(deviceIdentity(tenantCode, deviceNo));
    for (const listener of this.listeners) listener(tenantCode, deviceNo);
  }
}

/** Whether a cache entry holds this very hash and is still believed. */
function remembered(entry: { hash: Buffer; until: number } | undefined, hash: Buffer, now: number) {
  return entry !== undefined && entry.until > now && crypto.timingSafeEqual(entry.hash, hash);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Device secrets (app.ts creates it; the simulator's issueDemoCredentials). */
    deviceCredentials: CredentialService;
  }
}
