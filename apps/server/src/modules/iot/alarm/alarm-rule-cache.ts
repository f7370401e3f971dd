import { EventEmitter } from 'node:events';
import { AnnouncedCache } from '../../../db/announced-cache';
import type { Database } from '../../../db/database';
import type { AlarmRuleSpec } from './alarm-evaluator';
import { alarmRepo } from './alarm.repo';

/**
 * Rule writes announce themselves here too (the entity hooks run in the generic routes, which
 * know nothing of the alarm service): this node forgets at once, before the database's
 * announcement comes back.
 */
export const alarmRuleChanges = new EventEmitter<{ changed: [tenantId: string] }>();

/** Where the database announces a tenant's changed rules (db/device-notify.sql), to every node. */
export const ALARM_RULE_CHANNEL = 'shuili_alarm_rule';

/** Rules change rarely and are read on every stored batch: kept per tenant for a while. */
const TTL_MS = 30_000;
const CAPACITY = 10_000;

/**
 * Each tenant's enabled alarm rules, remembered while the database announces their changes: a
 * rule changed through any node applies on every node as it commits (not when an entry ages out).
 * While not listening (before start, after a lost connection) every read goes to the database.
 */
export class AlarmRuleCache {
  private readonly cache: AnnouncedCache<AlarmRuleSpec[]>;
  private readonly onChange = (tenantId: string) => this.cache.announced(tenantId);

  constructor(private readonly db: Database) {
    this.cache = new AnnouncedCache(db, {
      channel: ALARM_RULE_CHANNEL,
      ttlMs: TTL_MS,
      capacity: CAPACITY,
    });
    alarmRuleChanges.on('changed', this.onChange);
  }

  /** Starts listening for announcements (until then nothing is remembered). */
  start(): Promise<void> {
    return this.cache.start();
  }

  /** Whether changes are announced to this node now (else nothing is remembered). */
  get listening(): boolean {
    return this.cache.listening;
  }

  rules(tenantId: string): Promise<AlarmRuleSpec[]> {
    return this.cache.get(tenantId, async () => ({
      value: await this.db.tenant(tenantId, (sql) => alarmRepo.enabledRules(sql)),
      keepMs: TTL_MS,
    }));
  }

  async close(): Promise<void> {
    alarmRuleChanges.off('changed', this.onChange);
    await this.cache.stop();
  }
}
