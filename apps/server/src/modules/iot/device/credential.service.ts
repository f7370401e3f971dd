import crypto from 'node:crypto';
import { deviceIdentity } from '@shuili/contract';
import { AnnouncedCache, EVERYTHING } from '../../../db/announced-cache';
import { tenantIdOf, type Database, type TenantScope } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { AUTH_LIMITS, AuthGate } from '../../../mqtt/auth-gate';
import type { EndedDeviceIdentity } from '../../../mqtt/device-transport';
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

/** The channel on which the database announces device identities that ended (db/device-notify.sql). */
export const DEVICE_CHANNEL = 'shuili_device';

/** The device and secret a verified connection is bound to. */
export interface VerifiedCredential {
  deviceId: string;
  credentialId: string;
}

/**
 * Told when a device identity ended (whatever code or node ended it), or with EVERYTHING when
 * announcements may have been missed (a lost database connection): anything may have ended.
 */
export type IdentityEndListener = (ended: EndedDeviceIdentity | typeof EVERYTHING) => void;

/** 256 random bits: too many to guess, so a fast hash is enough to store them. */
function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** An announcement's payload (db/device-notify.sql); undefined when it cannot be read. */
export function parseEndedIdentity(payload: string): EndedDeviceIdentity | undefined {
  try {
    const parsed = JSON.parse(payload) as Partial<EndedDeviceIdentity>;
    return typeof parsed.tenantId === 'string' && typeof parsed.deviceId === 'string'
      ? (parsed as EndedDeviceIdentity)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Device credentials: generate, rotate, revoke (shown once), and verify for the broker. Every end
 * of a device identity (its device deleted or renumbered, its secret revoked or rotated) revokes
 * in the database, in the transaction of the change, and the database announces it
 * (db/device-notify.sql) to every node: there this service forgets what it believed of the
 * identity and tells its listeners (the device directory, the broker, which ends the identity's connections).
 */
export class CredentialService {
  /** `{identity}\0{hash of the offered secret}` -> the credential it proved, or null (refused). */
  private readonly cache: AnnouncedCache<VerifiedCredential | null>;
  /** Checks in flight by epoch, identity and offered hash: callers asking the same share one. */
  private readonly pending = new Map<string, Promise<VerifiedCredential | undefined>>();
  /** Counts announcements: a caller after one never joins a check that started before it. */
  private epoch = 0;
  private readonly gate = new AuthGate();

  constructor(private readonly db: Database) {
    let last: { payload: string; ended: EndedDeviceIdentity | undefined } | undefined;
    const endedOf = (payload: string) => {
      if (last?.payload !== payload) last = { payload, ended: parseEndedIdentity(payload) };
      return last.ended;
    };
    this.cache = new AnnouncedCache(db, {
      channel: DEVICE_CHANNEL,
      ttlMs: MQTT_LIMITS.credentialCacheMs,
      capacity: AUTH_LIMITS.maxCacheEntries,
      forgets: (payload, key, value) => {
        const ended = endedOf(payload);
        if (!ended) return true;
        if (value?.deviceId === ended.deviceId) return true;
        return (
          ended.tenantCode !== undefined &&
          ended.deviceNo !== undefined &&
          key.startsWith(`${deviceIdentity(ended.tenantCode, ended.deviceNo)}\0`)
        );
      },
    });
    this.cache.watch(() => (this.epoch += 1));
  }

  /** Listens to the database's announcements (app.ts: onReady); until then nothing is cached. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Hears every identity that ended, after this service forgot it. */
  onIdentityEnded(listener: IdentityEndListener): void {
    this.cache.watch((payload) => {
      if (payload === EVERYTHING) return listener(EVERYTHING);
      listener(parseEndedIdentity(payload) ?? EVERYTHING);
    });
  }

  /**
   * Forgets every secret verified or refused for a tenant's devices (it was suspended: the next
   * connection is checked again, and refused while the tenant is not active).
   */
  forgetTenant(tenantCode: string): void {
    this.epoch += 1;
    this.cache.forgetWhere((key) => key.startsWith(`${tenantCode}:`));
  }

  /**
   * Issues a new secret for a device of the tenant (of the caller's zones, given the caller as
   * the scope); the previous one stops working.
   */
  async reset(scope: TenantScope | string, deviceId: string): Promise<IssuedSecret> {
    const secret = newSecret();
    const tenantId = tenantIdOf(scope);
    const device = await this.db.tenant(scope, async (sql) => {
      const found = await credentialRepo.lockDevice(sql, deviceId);
      if (!found) throw new AppError(404, 'error.recordNotFound');
      await credentialRepo.revoke(sql, tenantId, deviceId);
      await credentialRepo.insert(sql, tenantId, deviceId, hashSecret(secret));
      return found;
    });
    return { ...device, identity: deviceIdentity(device.tenantCode, device.deviceNo), secret };
  }

  /**
   * Ends a device's secret without a new one: it can no longer connect until reset, and its
   * connections end (devices have no enable switch: this is how one is disabled).
   */
  async revoke(scope: TenantScope | string, deviceId: string): Promise<void> {
    const tenantId = tenantIdOf(scope);
    await this.db.tenant(scope, async (sql) => {
      const found = await credentialRepo.lockDevice(sql, deviceId);
      if (!found) throw new AppError(404, 'error.recordNotFound');
      await credentialRepo.revoke(sql, tenantId, deviceId);
    });
  }

  /**
   * Fresh secrets for every device of a tenant (the in-process simulator of `npm start`, which
   * must connect like any device). Previous secrets of those devices stop working.
   */
  async issueDemoCredentials(tenantCode = 'demo'): Promise<IssuedSecret[]> {
    return this.db.system(async (sql) => {
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
  }

  /** Which of the credentials still work (connections re-checked after missed announcements). */
  liveCredentials(credentialIds: string[]): Promise<ReadonlySet<string>> {
    return this.db.system((sql) => credentialRepo.liveOf(sql, credentialIds));
  }

  /**
   * The live credential the secret belongs to, or undefined. A success is remembered briefly and
   * so is a refusal of that same secret, while the database's announcements are heard (an ended
   * identity is forgotten at once); devices that reconnect in a storm (a gateway rebooting, a cell
   * tower back) share one query per identity and wait behind a few database slots, and a check
   * that cannot get one in time throws AuthBusyError (the broker answers "server unavailable").
   */
  async verify(
    tenantCode: string,
    deviceNo: string,
    secret: string,
  ): Promise<VerifiedCredential | undefined> {
    const epoch = this.epoch;
    const bound = await this.check(tenantCode, deviceNo, secret);
    // An identity ended while the check ran: its answer may predate the end, which found no
    // connection to close yet, so it is checked once more.
    return bound && epoch !== this.epoch ? this.check(tenantCode, deviceNo, secret) : bound;
  }

  private check(
    tenantCode: string,
    deviceNo: string,
    secret: string,
  ): Promise<VerifiedCredential | undefined> {
    const identity = deviceIdentity(tenantCode, deviceNo);
    const offered = crypto.createHash('sha256').update(secret, 'utf8').digest();
    const key = `${identity}\0${offered.toString('hex')}`;
    const shared = `${this.epoch}\0${key}`;
    const running = this.pending.get(shared);
    if (running) return running;
    const check = this.cache
      .get(key, async () => {
        const stored = await this.gate.run(() =>
          this.db.system((sql) => credentialRepo.liveCredential(sql, tenantCode, deviceNo)),
        );
        const expected = stored ? Buffer.from(stored.secretHash, 'hex') : undefined;
        const valid =
          expected !== undefined &&
          expected.length === offered.length &&
          crypto.timingSafeEqual(expected, offered);
        return valid
          ? {
              value: { deviceId: stored!.deviceId, credentialId: stored!.credentialId },
              keepMs: MQTT_LIMITS.credentialCacheMs,
            }
          : { value: null, keepMs: AUTH_LIMITS.deniedCacheMs };
      })
      .then((value) => value ?? undefined)
      .finally(() => this.pending.delete(shared));
    this.pending.set(shared, check);
    return check;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Device secrets (app.ts creates it; the simulator's issueDemoCredentials). */
    deviceCredentials: CredentialService;
  }
}
