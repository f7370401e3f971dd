// What the load benchmark's users saw: every call's latency by screen and by route, and every
// error (any answer that is not 2xx, or no answer at all), which the run must not have.
import { latencySummary } from './stats';

export interface LoadError {
  screen: string;
  call: string;
  status: number;
  /** The start of the answer's body, or the network error. */
  detail: string;
  at: string;
}

const KEPT_ERRORS = 50;

export function loadRecorder() {
  const screens = new Map<string, number[]>();
  const calls = new Map<string, number[]>();
  const all: number[] = [];
  const errorCounts = new Map<string, number>();
  const errors: LoadError[] = [];
  let errorCount = 0;
  const commands: number[] = [];
  const refusals = new Map<string, number>();
  const commandOutcomes = new Map<string, number>();
  const push = (map: Map<string, number[]>, key: string, value: number) => {
    const list = map.get(key) ?? [];
    list.push(value);
    map.set(key, list);
  };
  return {
    /** Latencies count only inside the measured window; errors count always. */
    measuring: false,
    /** Requests sent again after a reused keep-alive connection failed before answering. */
    staleConnectionRetries: 0,
    call(screen: string, call: string, status: number, ms: number, detail = '', expected = '') {
      if (expected) {
        const key = `${call} | ${status}: ${expected}`;
        refusals.set(key, (refusals.get(key) ?? 0) + 1);
      } else if (status < 200 || status > 299) {
        errorCount += 1;
        const key = `${screen} | ${call} | ${status}`;
        errorCounts.set(key, (errorCounts.get(key) ?? 0) + 1);
        if (errors.length < KEPT_ERRORS)
          errors.push({
            screen,
            call,
            status,
            detail: detail.slice(0, 300),
            at: new Date().toISOString(),
          });
      }
      if (!this.measuring) return;
      push(calls, call, ms);
      all.push(ms);
    },
    screen(screen: string, ms: number) {
      if (this.measuring) push(screens, screen, ms);
    },
    /** A sent command's final status as the page heard it, and how long after the send. */
    command(status: string, ms: number) {
      commandOutcomes.set(status, (commandOutcomes.get(status) ?? 0) + 1);
      if (this.measuring && status === 'succeeded') commands.push(ms);
    },
    get errorCount() {
      return errorCount;
    },
    summary(seconds: number) {
      const table = (map: Map<string, number[]>) =>
        Object.fromEntries(
          [...map.entries()]
            .sort((a, b) => b[1].length - a[1].length)
            .map(([key, values]) => [
              key,
              {
                perSecond: Math.round((values.length / seconds) * 10) / 10,
                ...latencySummary(values),
              },
            ]),
        );
      return {
        requests: all.length,
        requestsPerSecond: Math.round((all.length / seconds) * 10) / 10,
        overall: latencySummary(all),
        byScreen: table(screens),
        byCall: table(calls),
        errors: errorCount,
        staleConnectionRetries: this.staleConnectionRetries,
        errorsByCall: Object.fromEntries(errorCounts),
        firstErrors: errors,
        /** Refusals the console expects (a command already under way on the device). */
        expectedRefusals: Object.fromEntries(refusals),
        commands: {
          outcomes: Object.fromEntries(commandOutcomes),
          /** Send to the page hearing "succeeded": the server, the device's answer, the push. */
          answered: latencySummary(commands),
        },
      };
    },
  };
}

export type LoadRecorder = ReturnType<typeof loadRecorder>;
