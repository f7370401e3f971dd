import type { Database } from '../../../db/database';
import type { CommandService } from '../../iot/command/command.service';
import type { Processor, RunOutcome } from '../../scheduler/scheduler.service';
import { irrigationRepo } from './irrigation.repo';
import { soilRuleHolder } from './irrigation-keys';
import { nearest } from './nearest-station';
import { actOnChannels, tally } from './valve-actions';

/** A soil reading older than this is not acted on. */
const STALE_READING_MS = 3 * 3600_000;

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Whether the rule was already watering when this evaluation fired: it holds channels, taken by
 * an earlier evaluation. Holds taken by this very evaluation (an attempt that opened part of the
 * group and failed, now retried) last until at least its fire time plus the rule's minutes, an
 * earlier evaluation's end before that: the retry carries on opening (idempotent by run) instead
 * of taking its own half-done start for watering.
 */
export function wateringBefore(
  heldUntil: Date | undefined,
  fireAt: Date,
  maxMinutes: number,
): boolean {
  return heldUntil !== undefined && heldUntil.getTime() < fireAt.getTime() + maxMinutes * 60_000;
}

/**
 * A soil-moisture rule's evaluation (every 10 minutes): while it waters its group it closes it
 * once the moisture is above `stopAbove`; otherwise it opens the group (for at most
 * `maxMinutes`) when the moisture is below `startBelow`, unless more than `rainSkipMm` fell in
 * the last 24 h at the tenant's weather station nearest to the soil station. Every evaluation
 * records its decision and why.
 */
export function soilRuleProcessor(deps: {
  db: Database;
  commands: CommandService;
}): Processor<{ ruleId: string }> {
  return async (run): Promise<RunOutcome> => {
    const holder = soilRuleHolder(run.payload.ruleId);
    const state = await deps.db.tenant(run.tenantId, async (sql) => {
      const rule = await irrigationRepo.soilRule(sql, run.payload.ruleId);
      if (!rule) return undefined;
      const group = await irrigationRepo.group(sql, rule.group_id);
      const [station] = await irrigationRepo.devices(sql, [rule.device_id]);
      const reading = await irrigationRepo.latest(sql, rule.device_id, `soilMoisture${rule.depth}`);
      const { rows } = await sql.query<{ until: Date | null }>(
        'SELECT max(until) AS until FROM irrigation_channel_hold WHERE holder = $1 AND until > now()',
        [holder],
      );
      const heldUntil = rows[0]?.until ? new Date(rows[0].until) : undefined;
      return {
        rule,
        group,
        station,
        reading,
        watering: wateringBefore(heldUntil, run.fireAt, rule.max_minutes),
      };
    });
    if (!state || state.rule.status !== 1)
      return {
        state: 'skipped',
        result: { decision: 'skipped', why: 'disabled', reason: 'the rule is gone or disabled' },
      };
    const { rule, group, station, reading, watering } = state;
    // What every decision is judged against, for the runs list to word it in any language.
    const basis = {
      depth: Number(rule.depth),
      startBelow: rule.start_below,
      stopAbove: rule.stop_above,
      soilStation: station?.device_no ?? rule.device_id,
    };
    const members = group?.members ?? [];
    if (!reading || run.fireAt.getTime() - reading.ts.getTime() > STALE_READING_MS)
      return {
        state: 'skipped',
        result: {
          decision: 'skipped',
          ...basis,
          why: 'noReading',
          reason: `no recent ${rule.depth} cm moisture from ${station?.device_no ?? rule.device_id}`,
        },
      };
    const moisture = round1(reading.value);
    const operator = `soil rule: ${rule.rule_name}`;
    if (watering) {
      if (moisture <= rule.stop_above)
        return {
          state: 'skipped',
          result: {
            decision: 'watering',
            ...basis,
            moisture,
            reason: `watering: ${moisture} % at ${rule.depth} cm, stops above ${rule.stop_above} %`,
          },
        };
      const outcomes = await actOnChannels(
        deps.commands,
        run,
        { open: false, operator, holder },
        members,
      );
      await deps.db.tenant(run.tenantId, (sql) => irrigationRepo.releaseHolds(sql, holder));
      return {
        result: {
          decision: 'stopped',
          ...basis,
          moisture,
          ...tally(outcomes),
          outcomes,
          reason: `stopped: ${moisture} % at ${rule.depth} cm is above ${rule.stop_above} %`,
        },
      };
    }
    if (moisture >= rule.start_below)
      return {
        state: 'skipped',
        result: {
          decision: 'idle',
          ...basis,
          moisture,
          reason: `no need: ${moisture} % at ${rule.depth} cm, starts below ${rule.start_below} %`,
        },
      };
    if (rule.rain_skip_mm !== null) {
      const rain = await deps.db.tenant(run.tenantId, async (sql) => {
        const weather = nearest(
          station ?? { lat: null, lng: null },
          await irrigationRepo.weatherStations(sql),
        );
        if (!weather) return undefined;
        return {
          station: weather.item.device_no,
          mm: round1(await irrigationRepo.rainIn24h(sql, weather.item.id, run.fireAt)),
        };
      });
      if (rain && rain.mm > rule.rain_skip_mm)
        return {
          state: 'skipped',
          result: {
            decision: 'skipped',
            ...basis,
            why: 'rain',
            moisture,
            rainMm: rain.mm,
            station: rain.station,
            reason: `skipped: ${rain.mm} mm rain in 24 h at ${rain.station}`,
          },
        };
    }
    const until = new Date(Date.now() + rule.max_minutes * 60_000);
    const held = await deps.db.tenant(run.tenantId, (sql) =>
      irrigationRepo.takeHolds(sql, run.tenantId, { holder, name: rule.rule_name, until }, members),
    );
    const outcomes = await actOnChannels(
      deps.commands,
      run,
      { open: true, minutes: rule.max_minutes, operator, holder },
      held,
    );
    return {
      result: {
        decision: 'started',
        ...basis,
        moisture,
        ...tally(outcomes),
        heldByOthers: members.length - held.length,
        outcomes,
        reason: `started: ${moisture} % at ${rule.depth} cm is below ${rule.start_below} %`,
      },
    };
  };
}
