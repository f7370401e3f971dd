import type { ScheduleRun } from '@shuili/contract';
import type { Translate } from '../../../resource/field-rules';

const num = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));

/**
 * What a run decided and why, in the reader's language, from the run's recorded result (the
 * server's English `reason` when the result is of a shape this console does not know).
 */
export function runReason(t: Translate, run: ScheduleRun): string {
  const r = run.result ?? {};
  const key = (name: string, values: Record<string, unknown>) =>
    t(`monitor.irrigation.reason.${name}`, values);
  if (run.error && !run.decision) return run.error;
  switch (r.why ?? run.decision) {
    case 'rain':
      return key('rain', { mm: num(r.rainMm), station: r.station });
    case 'missed':
      return key('missed', { minutes: num(r.lateMinutes) });
    case 'disabled':
      return key('disabled', {});
    case 'stillRunning':
      return key('stillRunning', {});
    case 'noReading':
      return key('noReading', { depth: num(r.depth), station: r.soilStation });
    case 'idle':
      return key('idle', {
        moisture: num(r.moisture),
        depth: num(r.depth),
        start: num(r.startBelow),
      });
    case 'watering':
      return key('watering', {
        moisture: num(r.moisture),
        depth: num(r.depth),
        stop: num(r.stopAbove),
      });
    case 'stopped':
      return key('soilStopped', {
        moisture: num(r.moisture),
        depth: num(r.depth),
        stop: num(r.stopAbove),
      });
    case 'started':
      return run.what === 'evaluate'
        ? key('soilStarted', {
            moisture: num(r.moisture),
            depth: num(r.depth),
            start: num(r.startBelow),
          })
        : key('rotationStarted', { steps: num(r.steps) });
    case 'opened':
      return key('opened', {
        step: num(r.step),
        group: r.groupName ?? r.groupId,
        minutes: num(r.minutes),
        sent: num(r.sent),
        refused: num(r.refused),
      });
    default:
      return run.reason ?? run.error ?? '';
  }
}
