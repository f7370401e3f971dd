import { EventEmitter } from 'node:events';
import type { Database } from '../../../db/database';
import type { AlarmRuleSpec } from './alarm-evaluator';
import { alarmRepo } from './alarm.repo';

/**
 * Rule writes announce themselves here (the entity hooks run in the generic routes, which know
 * nothing of the alarm service). Other nodes learn of a change when their cache entry ages out.
 */
export const alarmRuleChanges = new EventEmitter<{ changed: [tenantId: string] }>();

/** Rules change rarely and are read on every stored batch: kept per tenant for a short while. */
const TTL_MS = 30_000;

export class AlarmRuleCache {
  private readonly byTenant = new Map<string, { rules: AlarmRuleSpec[]; at: number }>();
  private readonly onChange = (tenantId: string) => this.byTenant.delete(tenantId);

  constructor(private readonly db: Database) {
    alarmRuleChanges.on('changed', this.onChange);
  }

  async rules(tenantId: string): Promise<AlarmRuleSpec[]> {
    const cached = this.byTenant.get(tenantId);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.rules;
    const rules = await this.db.tenant(tenantId, (sql) => alarmRepo.enabledRules(sql));
    this.byTenant.set(tenantId, { rules, at: Date.now() });
    return rules;
  }

  close(): void {
    alarmRuleChanges.off('changed', this.onChange);
    this.byTenant.clear();
  }
}
