import {
  alarmRecordEntity,
  devicePushTopic,
  entityCalls,
  liveTopics,
  NO_DEVICE_LEVEL,
  type AlarmBellPush,
  type AlarmPush,
} from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import { notFound } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import type { ControlTransport } from '../command/control-transport';
import type { DeviceTelemetry, IngestListener } from '../telemetry/ingest-listener';
import { appliesTo, judge, type AlarmRuleSpec, type Verdict } from './alarm-evaluator';
import { alarmNotice, type AlarmNotice } from './alarm-notice';
import { AlarmRuleCache } from './alarm-rule-cache';
import { alarmRepo, type AlarmRecordRow, type StoredReading } from './alarm.repo';

/** How often silent devices are looked for (one node at a time). */
const DEFAULT_NO_DATA_CHECK_MS = 60_000;

export interface AlarmServiceDeps {
  db: Database;
  transport: Pick<ControlTransport, 'publishLive'>;
  log: FastifyBaseLogger;
  noDataCheckMs?: number;
}

/** A numeric reading some rule watches. */
interface WatchedPoint {
  deviceId: string;
  productId: string | null;
  key: string;
  ts: Date;
  value: number;
}

interface Decision {
  rule: AlarmRuleSpec;
  point: WatchedPoint;
  verdict: Verdict;
}

/** The call whose grant lets a user read alarms: their bells follow it, as their live data does. */
const ALARM_QUERY_URL = entityCalls(alarmRecordEntity).query;

/** What happened inside a transaction, announced once it committed. */
interface Announcement {
  event: AlarmPush['event'];
  record: AlarmRecordRow;
  rule: AlarmRuleSpec | undefined;
  notificationId?: string;
  notice?: AlarmNotice;
  /** Who the raised alarm's bell is for (alarmRepo.recipients). */
  recipients?: string[];
}

/**
 * Alarm rules evaluated on every stored batch of readings and, for silence, by a timer. A record
 * opens when a condition starts holding and clears when the value is back past the threshold by
 * the hysteresis; a raised alarm reaches the bells of the users who may see it (their grants and
 * zones) and the live topics.
 */
export class AlarmService implements IngestListener {
  readonly rules: AlarmRuleCache;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(private readonly deps: AlarmServiceDeps) {
    this.rules = new AlarmRuleCache(deps.db);
  }

  async onTelemetry(batches: DeviceTelemetry[]): Promise<void> {
    const byTenant = new Map<string, DeviceTelemetry[]>();
    for (const batch of batches) {
      const list = byTenant.get(batch.device.tenantId);
      if (list) list.push(batch);
      else byTenant.set(batch.device.tenantId, [batch]);
    }
    for (const [tenantId, list] of byTenant) {
      const rules = await this.rules.rules(tenantId);
      // Most readings meet no rule: judge only those some rule watches. Filtering by key before
      // building and sorting anything keeps unwatched readings free (measured: this listener was
      // 7 % of the server's CPU under load when it sorted every reading).
      if (rules.length === 0) continue;
      const keys = new Set<string>();
      for (const rule of rules) keys.add(rule.propertyKey);
      const points: WatchedPoint[] = [];
      for (const { device, readings } of list)
        for (const reading of readings) {
          if (reading.value === null || !keys.has(reading.key)) continue;
          points.push({
            deviceId: device.deviceId,
            productId: device.productId,
            key: reading.key,
            ts: reading.ts,
            value: reading.value,
          });
        }
      points.sort((a, b) => a.ts.getTime() - b.ts.getTime());
      const watched = points
        .map((point) => ({ point, rules: rules.filter((rule) => appliesTo(rule, point)) }))
        .filter((one) => one.rules.length > 0);
      const rates = await this.ratesOf(
        tenantId,
        watched
          .filter((one) => one.rules.some((rule) => rule.kind === 'rateOfChange'))
          .map((one) => one.point),
      );
      const decisions: Decision[] = [];
      for (const { point, rules: watching } of watched)
        for (const rule of watching) {
          const verdict = judge(rule, point.value, rates.get(point));
          if (verdict.state !== 'hold') decisions.push({ rule, point, verdict });
        }
      if (decisions.length > 0) await this.apply(tenantId, list[0]!.device.tenantCode, decisions);
    }
  }

  /**
   * Acknowledges alarms with one comment, all or none in one transaction: each must be one the
   * caller may see (tenant and device scope, by the same policies as the lists), else nothing is
   * acknowledged and the call answers 404.
   */
  async acknowledge(auth: AuthContext, ids: string[], comment: string): Promise<void> {
    const wanted = [...new Set(ids)];
    const done = await this.deps.db.tenant(auth, async (sql) => {
      const records = await alarmRepo.acknowledge(sql, wanted, {
        userId: auth.userId,
        username: auth.username,
        comment,
      });
      if (records.length !== wanted.length) throw notFound('error.recordNotFound');
      const rules = new Map<string, AlarmRuleSpec | undefined>();
      for (const id of new Set(records.flatMap((record) => record.rule_id ?? [])))
        rules.set(id, await alarmRepo.rule(sql, id));
      return records.map((record) => ({
        event: 'acknowledged' as const,
        record,
        rule: record.rule_id ? rules.get(record.rule_id) : undefined,
      }));
    });
    await this.announce(auth.tenantId, auth.tenantCode, done);
  }

  /**
   * Raises or clears alarms another module judged (a condition lasting hours, which no single
   * reading shows: a drought; a rolling rain sum), under one of the tenant's rules: the same
   * records, bells and live pushes as the rules' own, one open record per rule and device. A
   * breach may name what it measured (`propertyKey`: the window of a rainstorm level), else the
   * rule's property is recorded. Answers how many alarms it raised and cleared.
   */
  async judged(
    tenantId: string,
    tenantCode: string,
    rule: AlarmRuleSpec,
    verdicts: ReadonlyArray<{
      deviceId: string;
      state: 'breach' | 'clear';
      propertyKey?: string;
      value: number | null;
      threshold: number | null;
      at: Date;
    }>,
  ): Promise<{ raised: number; cleared: number }> {
    if (verdicts.length === 0) return { raised: 0, cleared: 0 };
    const announcements = await this.deps.db.tenant(tenantId, async (sql) => {
      const open = await alarmRepo.openOf(
        sql,
        [rule.id],
        verdicts.map((one) => one.deviceId),
      );
      const done: Announcement[] = [];
      for (const verdict of verdicts) {
        const openId = open.get(`${rule.id}:${verdict.deviceId}`);
        if (verdict.state === 'clear') {
          const record = openId ? await alarmRepo.clear(sql, openId, verdict.at) : undefined;
          if (record) done.push({ event: 'cleared', record, rule });
          continue;
        }
        if (openId) continue;
        const record = await alarmRepo.open(sql, {
          tenantId,
          rule,
          deviceId: verdict.deviceId,
          propertyKey: verdict.propertyKey,
          value: verdict.value,
          threshold: verdict.threshold,
          at: verdict.at,
        });
        if (record) done.push(await this.raised(sql, tenantId, record, rule));
      }
      return done;
    });
    await this.announce(tenantId, tenantCode, announcements);
    return {
      raised: announcements.filter((one) => one.event === 'raised').length,
      cleared: announcements.filter((one) => one.event === 'cleared').length,
    };
  }

  /** Raises noData alarms of devices silent too long, on one node at a time. */
  async checkSilence(): Promise<void> {
    const silent = await this.deps.db.withLock('iot:alarm:nodata', (sql) =>
      alarmRepo.silentDevices(sql),
    );
    const byTenant = new Map<string, typeof silent>();
    for (const row of silent)
      byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), row]);
    for (const [tenantId, rows] of byTenant) {
      const rules = await this.rules.rules(tenantId);
      const tenantCode = await this.deps.db.system((sql) => alarmRepo.tenantCode(sql, tenantId));
      if (!tenantCode) continue;
      const announcements = await this.deps.db.tenant(tenantId, async (sql) => {
        const done: Announcement[] = [];
        for (const row of rows) {
          const rule = rules.find((one) => one.id === row.rule_id);
          if (!rule) continue;
          const record = await alarmRepo.open(sql, {
            tenantId,
            rule,
            deviceId: row.device_id,
            value: null,
            threshold: rule.noDataMinutes,
            at: new Date(),
          });
          if (record) done.push(await this.raised(sql, tenantId, record, rule));
        }
        return done;
      });
      await this.announce(tenantId, tenantCode, announcements);
    }
  }

  start(): void {
    if (this.timer) return;
    // Rules changed through any node are announced (it retries by itself when it cannot listen).
    void this.rules.start();
    this.timer = setInterval(() => {
      this.checking ??= this.checkSilence()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'noData check failed'))
        .finally(() => {
          this.checking = undefined;
        });
    }, this.deps.noDataCheckMs ?? DEFAULT_NO_DATA_CHECK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
    await this.rules.close();
  }

  /**
   * Change per minute of each point since the stored reading before it, read from the database:
   * behind a load balancer one device's readings are spread over the nodes, so no node's memory
   * holds every previous reading (docs/scaling.md). The batch is committed, so a predecessor in
   * the same batch is found too; a point with no earlier reading has no rate.
   */
  private async ratesOf(
    tenantId: string,
    points: readonly WatchedPoint[],
  ): Promise<Map<WatchedPoint, number>> {
    const rates = new Map<WatchedPoint, number>();
    if (points.length === 0) return rates;
    const previous = await this.deps.db.tenant(tenantId, (sql) =>
      alarmRepo.previousReadings(sql, tenantId, points),
    );
    points.forEach((point, index) => {
      const rate = changePerMinute(previous[index], point);
      if (rate !== undefined) rates.set(point, rate);
    });
    return rates;
  }

  private async apply(tenantId: string, tenantCode: string, decisions: Decision[]): Promise<void> {
    const announcements = await this.deps.db.tenant(tenantId, async (sql) => {
      const open = await alarmRepo.openOf(
        sql,
        [...new Set(decisions.map((one) => one.rule.id))],
        [...new Set(decisions.map((one) => one.point.deviceId))],
      );
      const done: Announcement[] = [];
      for (const { rule, point, verdict } of decisions) {
        const key = `${rule.id}:${point.deviceId}`;
        const openId = open.get(key);
        if (verdict.state === 'clear' && openId) {
          const record = await alarmRepo.clear(sql, openId, point.ts);
          open.delete(key);
          if (record) done.push({ event: 'cleared', record, rule });
        } else if (verdict.state === 'breach' && !openId) {
          const record = await alarmRepo.open(sql, {
            tenantId,
            rule,
            deviceId: point.deviceId,
            value: verdict.value,
            threshold: verdict.threshold,
            at: point.ts,
          });
          if (!record) continue;
          open.set(key, record.id);
          done.push(await this.raised(sql, tenantId, record, rule));
        }
      }
      return done;
    });
    await this.announce(tenantId, tenantCode, announcements);
  }

  /** The bell notice of a raised alarm, written in the alarm's own transaction. */
  private async raised(
    sql: Sql,
    tenantId: string,
    record: AlarmRecordRow,
    rule: AlarmRuleSpec,
  ): Promise<Announcement> {
    const devices = await alarmRepo.devices(sql, record.device_id ? [record.device_id] : []);
    const notice = alarmNotice(record, rule, devices.get(record.device_id ?? ''));
    const recipients = await alarmRepo.recipients(sql, record.device_id, ALARM_QUERY_URL);
    const notificationId = await alarmRepo.notify(sql, {
      tenantId,
      alarmId: record.id,
      ...notice,
      recipients,
    });
    return { event: 'raised', record, rule, notificationId, notice, recipients };
  }

  /** Live pushes after commit: the alarm topic, and each user's bell for a raised alarm. */
  private async announce(
    tenantId: string,
    tenantCode: string,
    announcements: Announcement[],
  ): Promise<void> {
    if (announcements.length === 0) return;
    try {
      const deviceIds = announcements.flatMap((one) => one.record.device_id ?? []);
      const devices = await this.deps.db.tenant(tenantId, (sql) =>
        alarmRepo.devices(sql, deviceIds),
      );
      for (const { event, record, rule, notificationId, notice, recipients } of announcements) {
        const push: AlarmPush = {
          event,
          id: record.id,
          ruleId: record.rule_id,
          ruleName: rule?.ruleName ?? null,
          deviceId: record.device_id,
          deviceNo: devices.get(record.device_id ?? '')?.device_no ?? null,
          propertyKey: record.property_key,
          level: record.level,
          value: record.value,
          threshold: record.threshold,
          state: record.state,
          startedAt: record.started_at.toISOString(),
          clearedAt: record.cleared_at?.toISOString() ?? null,
        };
        await this.deps.transport.publishLive(
          devicePushTopic(tenantCode, 'alarm', push.deviceNo ?? NO_DEVICE_LEVEL),
          Buffer.from(JSON.stringify(push)),
        );
        if (event !== 'raised' || !notice || !notificationId) continue;
        const bellPush: AlarmBellPush = {
          kind: 'alarm',
          notificationId,
          alarmId: record.id,
          deviceId: record.device_id,
          level: record.level,
          title: notice.titleI18n,
          content: notice.text,
        };
        const bell = Buffer.from(JSON.stringify(bellPush));
        for (const userId of recipients ?? [])
          await this.deps.transport.publishLive(liveTopics.userNotify(tenantCode, userId), bell);
      }
    } catch (error) {
      // The records and bell rows are stored; a lost push only delays the screens' next read.
      this.deps.log.warn({ err: error }, 'alarm push failed');
    }
  }
}

function changePerMinute(before: StoredReading | undefined, point: WatchedPoint) {
  if (!before) return undefined;
  const minutes = (point.ts.getTime() - before.ts.getTime()) / 60_000;
  return minutes > 0 ? Math.abs(point.value - before.value) / minutes : undefined;
}
