import {
  EMPTY_THING_MODEL,
  thingModelSchema,
  type ThingModel,
  type ThingProperty,
} from '@shuili/contract';
import type { Database } from '../../../db/database';

/** A device as ingestion needs it, resolved from its authenticated identity. */
export interface DirectoryEntry {
  tenantId: string;
  tenantCode: string;
  deviceId: string;
  deviceNo: string;
  deviceName: string | null;
  productId: string | null;
  thingModel: ThingModel;
  /** The thing model's properties by key. */
  properties: ReadonlyMap<string, ThingProperty>;
}

interface Cached {
  entry: DirectoryEntry | undefined;
  expiresAt: number;
}

export interface DeviceDirectoryOptions {
  /** How long an entry is trusted; bounds how stale another node's cache can be. */
  ttlMs?: number;
  /** How long "no such device" is remembered (a deleted device still publishing). */
  missTtlMs?: number;
  maxEntries?: number;
}

const keyOf = (tenantCode: string, deviceNo: string) => `${tenantCode}\u0000${deviceNo}`;

/** Identities read by one query at most (a node meeting thousands of devices at once). */
const MAX_BATCH = 1000;

interface BatchedLookup {
  tenantCode: string;
  deviceNo: string;
  resolve(entry: DirectoryEntry | undefined): void;
  reject(error: unknown): void;
}

/** A stored thing model as the contract shapes it; a broken one counts as empty (nothing known). */
export function thingModelOf(raw: unknown): ThingModel {
  const parsed = thingModelSchema.safeParse(
    typeof raw === 'string' ? safeJson(raw) : (raw ?? EMPTY_THING_MODEL),
  );
  return parsed.success ? parsed.data : EMPTY_THING_MODEL;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * (tenantCode, deviceNo) -> tenant, device, product and thing model, cached. Device and product
 * writes call `invalidate` (entity hooks); entries also expire, so other nodes catch up.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, Cached>();
  private readonly loading = new Map<string, Promise<DirectoryEntry | undefined>>();
  /** Lookups asked in this turn of the event loop, read together by one query. */
  private batch = new Map<string, BatchedLookup>();
  /** Bumped by invalidate: a lookup that started before must not cache what it read. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly missTtlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly db: Database,
    options: DeviceDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.missTtlMs = options.missTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 200_000;
  }

  async lookup(tenantCode: string, deviceNo: string): Promise<DirectoryEntry | undefined> {
    const id = keyOf(tenantCode, deviceNo);
    const cached = this.cache.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.entry;
    const pending = this.loading.get(id);
    if (pending) return pending;
    const generation = this.generation;
    const load = this.load(tenantCode, deviceNo)
      .then((entry) => {
        if (generation === this.generation) {
          if (this.cache.size >= this.maxEntries) this.cache.clear();
          this.cache.set(id, {
            entry,
            expiresAt: Date.now() + (entry ? this.ttlMs : this.missTtlMs),
          });
        }
        return entry;
      })
      .finally(() => this.loading.delete(id));
    this.loading.set(id, load);
    return load;
  }

  /**
   * Forgets a device (after it was changed or deleted) or, without deviceId, every device of the
   * tenant (a product's thing model changed, a tenant was removed).
   */
  invalidate(tenantId: string, deviceId?: string): void {
    this.generation += 1;
    for (const [id, cached] of this.cache) {
      if (
        cached.entry === undefined ||
        (cached.entry.tenantId === tenantId &&
          (deviceId === undefined || cached.entry.deviceId === deviceId))
      )
        this.cache.delete(id);
    }
  }

  /** Forgets what is known under one identity (the next lookup reads the database). */
  forget(tenantCode: string, deviceNo: string): void {
    this.generation += 1;
    this.cache.delete(keyOf(tenantCode, deviceNo));
  }

  /** Forgets every device (announcements of ended identities may have been missed). */
  clear(): void {
    this.generation += 1;
    this.cache.clear();
  }

  /**
   * Reads an identity with the others asked in the same turn of the event loop: a node that meets
   * thousands of devices at once (its start, a broker's queue drained) reads them in a few
   * queries instead of taking every database connection with one query each.
   */
  private load(tenantCode: string, deviceNo: string): Promise<DirectoryEntry | undefined> {
    return new Promise((resolve, reject) => {
      if (this.batch.size === 0) setImmediate(() => this.readBatch());
      this.batch.set(keyOf(tenantCode, deviceNo), { tenantCode, deviceNo, resolve, reject });
    });
  }

  private readBatch(): void {
    const lookups = [...this.batch.values()];
    this.batch = new Map();
    for (let from = 0; from < lookups.length; from += MAX_BATCH) {
      const chunk = lookups.slice(from, from + MAX_BATCH);
      this.readMany(chunk).then(
        (entries) => {
          for (const lookup of chunk)
            lookup.resolve(entries.get(keyOf(lookup.tenantCode, lookup.deviceNo)));
        },
        (error: unknown) => {
          for (const lookup of chunk) lookup.reject(error);
        },
      );
    }
  }

  private async readMany(lookups: BatchedLookup[]): Promise<Map<string, DirectoryEntry>> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{
        tenant_code: string;
        device_no: string;
        tenant_id: string;
        device_id: string;
        device_name: string | null;
        product_id: string | null;
        thing_model: unknown;
      }>(
        `SELECT k.tenant_code, k.device_no, t.id::text AS tenant_id, d.id::text AS device_id,
                d.device_name, d.product_id::text AS product_id, p.thing_model
           FROM unnest($1::text[], $2::text[]) AS k(tenant_code, device_no)
           JOIN tenant t ON t.tenant_code = k.tenant_code
           JOIN iot_device d ON d.tenant_id = t.id AND d.device_no = k.device_no
           LEFT JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id`,
        [lookups.map((lookup) => lookup.tenantCode), lookups.map((lookup) => lookup.deviceNo)],
      ),
    );
    const entries = new Map<string, DirectoryEntry>();
    for (const row of rows) {
      const thingModel = thingModelOf(row.thing_model);
      entries.set(keyOf(row.tenant_code, row.device_no), {
        tenantId: row.tenant_id,
        tenantCode: row.tenant_code,
        deviceId: row.device_id,
        deviceNo: row.device_no,
        deviceName: row.device_name,
        productId: row.product_id,
        thingModel,
        properties: new Map(thingModel.properties.map((property) => [property.key, property])),
      });
    }
    return entries;
  }
}
