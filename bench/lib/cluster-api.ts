// The cluster benchmark's API load: a signed-in console's read-heavy mix (three device list pages
// for every workbench overview) in closed loop through nginx, the same for one node and for three.
import { entityCalls, iotDeviceEntity, WORKBENCH_CALLS } from '@shuili/contract';
import { keepAliveClient } from './http-load';
import { closedLoop, latencySummary, round } from './stats';

/** The console's device list (first page of 50) and the workbench's operations overview. */
export const API_MIX = [
  { name: 'device list', path: `${entityCalls(iotDeviceEntity).query}?currentPage=1&pageSize=50` },
  { name: 'device list', path: `${entityCalls(iotDeviceEntity).query}?currentPage=1&pageSize=50` },
  { name: 'device list', path: `${entityCalls(iotDeviceEntity).query}?currentPage=1&pageSize=50` },
  { name: 'workbench overview', path: WORKBENCH_CALLS.overview },
] as const;

/** Every call of the mix answers 200 with data through this URL (checked before measuring). */
export async function checkMix(url: string, token: string): Promise<void> {
  const client = keepAliveClient(url, { authorization: `Bearer ${token}` }, 1);
  try {
    for (const call of API_MIX) {
      const answer = await client.get(call.path);
      const body = JSON.parse(answer.body) as { data?: unknown };
      if (answer.status !== 200 || body.data === undefined)
        throw new Error(`${call.name}: ${answer.status} ${answer.body.slice(0, 300)}`);
    }
  } finally {
    client.close();
  }
}

export interface ApiStep {
  connections: number;
  seconds: number;
}

/**
 * `connections` loops send the mix round-robin for `seconds`: requests a second over the mix,
 * latency over all and per call, and failures (anything but 200, or no answer).
 */
export async function apiStep(url: string, token: string, step: ApiStep) {
  const client = keepAliveClient(url, { authorization: `Bearer ${token}` }, step.connections);
  const byCall = new Map<string, number[]>();
  // What a failure was (status, or the error's code when no answer came): a 503 is a node's
  // pool waiting too long, a reset a node or nginx closing the connection.
  const failures = new Map<string, number>();
  const fail = (kind: string) => failures.set(kind, (failures.get(kind) ?? 0) + 1);
  let next = 0;
  try {
    const run = await closedLoop(step.connections, step.seconds, async () => {
      const call = API_MIX[next++ % API_MIX.length]!;
      const t0 = performance.now();
      const answer = await client.get(call.path).catch((error: NodeJS.ErrnoException) => {
        fail(error.code ?? 'error');
        throw error;
      });
      const times = byCall.get(call.name) ?? [];
      times.push(performance.now() - t0);
      byCall.set(call.name, times);
      if (answer.status !== 200) fail(String(answer.status));
      return answer.status === 200;
    });
    return {
      perSecond: round(run.perSecond),
      requests: run.completed,
      errors: run.failures,
      failures: Object.fromEntries(failures),
      latency: latencySummary(run.latencies),
      byCall: Object.fromEntries([...byCall].map(([name, times]) => [name, latencySummary(times)])),
    };
  } finally {
    client.close();
  }
}
