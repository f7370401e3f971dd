// Measuring one call of the monitor benchmark against its peer: closed-loop load at a few
// concurrencies (the area list, against a peer process), or one request at a time alternating
// with the peer's SQL run from this process (the report and the overview).
import { keepAliveClient } from './http-load';
import { closedLoop, latencySummary, median, round } from './stats';

export interface LoadTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
}

/** GET of a target: the answer's body parsed, refused unless a 200 with `code: 200`. */
export async function getData(target: LoadTarget, path: string): Promise<unknown> {
  const client = keepAliveClient(target.url, target.headers, 1);
  try {
    const answer = await client.get(path);
    const body = JSON.parse(answer.body) as { code?: number; data?: unknown };
    if (answer.status !== 200 || body.code !== 200)
      throw new Error(`${target.name} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return body.data;
  } finally {
    client.close();
  }
}

/** Whether a call exists on the server yet (anything but a 404). */
export async function exists(target: LoadTarget, path: string): Promise<boolean> {
  const client = keepAliveClient(target.url, target.headers, 1);
  try {
    return (await client.get(path)).status !== 404;
  } finally {
    client.close();
  }
}

/**
 * Closed-loop load on every target at every concurrency, `runs` times; within a run the
 * targets take turns at each concurrency, so a busy moment of the machine falls on all of them.
 * Latencies are pooled over the runs; throughput is the median of the runs.
 */
export async function loadAtConcurrencies(
  targets: LoadTarget[],
  path: string,
  plan: { warmup: number; concurrencies: number[]; seconds: number; runs: number },
) {
  type Run = Awaited<ReturnType<typeof closedLoop>>;
  const runs = targets.map(() => plan.concurrencies.map(() => [] as Run[]));
  for (const target of targets) {
    const client = keepAliveClient(target.url, target.headers, 1);
    try {
      for (let i = 0; i < plan.warmup; i += 1) await client.get(path);
    } finally {
      client.close();
    }
  }
  for (let run = 0; run < plan.runs; run += 1) {
    for (const [c, connections] of plan.concurrencies.entries()) {
      for (const [t, target] of targets.entries()) {
        // Each run opens its own connections, so none sits idle long enough to be closed under it.
        const client = keepAliveClient(target.url, target.headers, connections);
        try {
          runs[t]![c]!.push(
            await closedLoop(connections, plan.seconds, () =>
              client.get(path).then((answer) => answer.status === 200),
            ),
          );
        } finally {
          client.close();
        }
      }
    }
  }
  return targets.map((target, t) => ({
    target: target.name,
    levels: plan.concurrencies.map((connections, c) => {
      const done = runs[t]![c]!;
      const latency = latencySummary(done.flatMap((r) => r.latencies));
      return {
        connections,
        perSecond: round(median(done.map((r) => r.perSecond))),
        perSecondRuns: done.map((r) => round(r.perSecond)),
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        maxMs: latency.maxMs,
        requests: latency.count,
        errors: done.reduce((sum, r) => sum + r.failures, 0),
      };
    }),
  }));
}

/** Shuili's figures over the peer's, level by level (latency above 1: Shuili is slower). */
export function levelRatios(
  shuili: Awaited<ReturnType<typeof loadAtConcurrencies>>[number],
  peer: Awaited<ReturnType<typeof loadAtConcurrencies>>[number],
) {
  return shuili.levels.map((level, i) => {
    const other = peer.levels[i]!;
    return {
      connections: level.connections,
      p50: round(level.p50Ms / other.p50Ms),
      p99: round(level.p99Ms / other.p99Ms),
      perSecond: round(level.perSecond / other.perSecond),
    };
  });
}

const elapsed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const result = await work();
  return [result, performance.now() - t0];
};

/**
 * One request at a time, `runs` times after `warmup`: the server's call and the peer's SQL
 * alternately, in alternating order (whichever goes second may find the pages the first one read
 * cached); `check` compares the two answers of every run (throws when they differ).
 */
export async function alternate<S, P>(
  runs: number,
  warmup: number,
  server: (run: number) => Promise<S>,
  peer: (run: number) => Promise<P>,
  check: (server: S, peer: P) => void,
) {
  const serverTimes: number[] = [];
  const peerTimes: number[] = [];
  for (let run = -warmup; run < runs; run += 1) {
    const serverFirst = run % 2 === 0;
    let viaServer: [S, number];
    let viaPeer: [P, number];
    if (serverFirst) {
      viaServer = await elapsed(() => server(run));
      viaPeer = await elapsed(() => peer(run));
    } else {
      viaPeer = await elapsed(() => peer(run));
      viaServer = await elapsed(() => server(run));
    }
    check(viaServer[0], viaPeer[0]);
    if (run < 0) continue;
    serverTimes.push(viaServer[1]);
    peerTimes.push(viaPeer[1]);
  }
  const shuili = latencySummary(serverTimes);
  const bare = latencySummary(peerTimes);
  return {
    answersEqual: true,
    shuili,
    peer: bare,
    shuiliOverPeer: {
      p50: round(shuili.p50Ms / bare.p50Ms),
      p99: round(shuili.p99Ms / bare.p99Ms),
    },
  };
}
