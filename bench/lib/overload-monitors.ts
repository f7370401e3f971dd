// What the overload benchmark watches once a second (or faster) while it floods a broker: its
// memory, its health endpoint, and one device publishing at a normal rate the whole time.
import mqtt from 'mqtt';
import type { LoadDevice } from './mqtt-load';
import { residentMiB } from './mqtt-load';
import { latencySummary } from './stats';

/** A timestamped sample, ms since the epoch. */
interface Sample<T> {
  at: number;
  value: T;
}

/** A process's resident memory, sampled every `everyMs`. */
export function sampleMemory(pid: number, everyMs = 1000) {
  const samples: Sample<number>[] = [];
  const timer = setInterval(
    () =>
      void residentMiB(pid).then((mib) => mib > 0 && samples.push({ at: Date.now(), value: mib })),
    everyMs,
  );
  return {
    stop: () => clearInterval(timer),
    /** Samples taken between two instants. */
    between: (from: number, to: number) =>
      samples.filter((s) => s.at >= from && s.at < to).map((s) => s.value),
  };
}

/**
 * GET `url` every `everyMs`, one request at a time, as a load balancer's health check would (a
 * request that takes more than `timeoutMs` counts as failed).
 */
export function pollHealth(url: string, everyMs = 1000, timeoutMs = 10_000) {
  const samples: Sample<{ ms: number; ok: boolean }>[] = [];
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const at = Date.now();
      const ok = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.ok;
        },
        () => false,
      );
      samples.push({ at, value: { ms: Date.now() - at, ok } });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - at))));
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      await running;
    },
    between: (from: number, to: number) => {
      const taken = samples.filter((s) => s.at >= from && s.at < to).map((s) => s.value);
      return {
        ...latencySummary(taken.map((s) => s.ms)),
        failed: taken.filter((s) => !s.ok).length,
      };
    },
  };
}

/** One probe message: when it was published and how long its acknowledgement took. */
export interface ProbeMessage {
  sentAt: number;
  /** Undefined while (or if never) acknowledged. */
  ackMs?: number;
}

/**
 * One device publishing a QoS 1 reading every `everyMs` on its own connection, whatever the
 * others do: its acknowledgement delay (acknowledged = stored) is what a normal device feels.
 */
export async function probeDevice(
  url: string,
  device: LoadDevice,
  payloadOf: (sentAt: number) => string,
  everyMs = 200,
) {
  const client = await mqtt.connectAsync(url, {
    clientId: device.clientId,
    username: device.username,
    password: device.password,
    reconnectPeriod: 0,
    keepalive: 60,
  });
  const messages: ProbeMessage[] = [];
  let closed = 0;
  client.on('close', () => (closed += 1));
  const timer = setInterval(() => {
    const message: ProbeMessage = { sentAt: Date.now() };
    messages.push(message);
    client.publish(device.topic, payloadOf(message.sentAt), { qos: 1 }, (error) => {
      if (!error) message.ackMs = Date.now() - message.sentAt;
    });
  }, everyMs);
  return {
    messages,
    get closed() {
      return closed;
    },
    get acknowledged() {
      return messages.filter((m) => m.ackMs !== undefined).length;
    },
    between: (from: number, to: number) =>
      latencySummary(
        messages
          .filter((m) => m.sentAt >= from && m.sentAt < to && m.ackMs !== undefined)
          .map((m) => m.ackMs!),
      ),
    /** Stops publishing, waits up to `drainMs` for the last acknowledgements, and disconnects. */
    stop: async (drainMs = 10_000) => {
      clearInterval(timer);
      const until = Date.now() + drainMs;
      while (messages.some((m) => m.ackMs === undefined) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await client.endAsync(true);
    },
  };
}

/**
 * How long after `stoppedAt` the probe was back to normal: the first instant from which every
 * probe message was acknowledged within `normalMs` (undefined: not within what was watched).
 */
export function recoveredAfterMs(
  messages: ProbeMessage[],
  stoppedAt: number,
  normalMs: number,
): number | undefined {
  const after = messages.filter((m) => m.sentAt >= stoppedAt);
  if (after.length === 0) return undefined;
  // Walk back from the end: the last slow (or unacknowledged) message bounds the recovery.
  let lastBad = -1;
  after.forEach((m, i) => {
    if (m.ackMs === undefined || m.ackMs > normalMs) lastBad = i;
  });
  if (lastBad === after.length - 1) return undefined;
  const firstGood = after[lastBad + 1]!;
  return lastBad < 0 ? 0 : firstGood.sentAt - stoppedAt;
}
