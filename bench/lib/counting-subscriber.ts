// How fast the published readings reach a subscriber: the delay from the publisher's `sentAt`.
import mqtt from 'mqtt';
import { quantile } from './stats';

/**
 * The publisher's `sentAt` (else `ts`) of a bench message, read without parsing the whole JSON:
 * 20 browsers receive 20,000 messages a second on the load generator's one core.
 */
export function sentAtOf(payload: Buffer): number {
  const text = payload.toString('latin1');
  const match = /"sentAt":(\d+)/.exec(text) ?? /"ts":(\d+)/.exec(text);
  return match ? Number(match[1]) : NaN;
}

/**
 * A subscriber that counts what arrives on topic filters and the delay from the publisher's
 * `sentAt` (same machine clock) to arrival: the peer's "stored" is "delivered to one consumer".
 * Browsers subscribe at QoS 0 (as the console does), the ingest peer's consumer at QoS 1.
 */
export async function countingSubscriber(
  url: string,
  filter: string | string[],
  options: mqtt.IClientOptions = {},
  qos: 0 | 1 = 1,
) {
  let delays: number[] = [];
  let received = 0;
  // Messages published before this instant are not measured (warm-up), see measureFrom.
  let from = 0;
  let measured = 0;
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...options });
  client.on('message', (_topic, payload) => {
    received += 1;
    const ts = sentAtOf(payload);
    if (!Number.isFinite(ts) || ts < from) return;
    measured += 1;
    delays.push(Date.now() - ts);
  });
  await client.subscribeAsync(filter, { qos });
  return {
    get received() {
      return received;
    },
    /** Messages published since measureFrom's instant that arrived. */
    get measured() {
      return measured;
    },
    /** Measures only messages published from `instant` on (ms since the epoch), from zero. */
    measureFrom(instant: number) {
      from = instant;
      measured = 0;
      delays = [];
    },
    /** Delays since the last reset, then forgets them. */
    takeDelays() {
      const taken = delays;
      delays = [];
      return {
        count: taken.length,
        p50Ms: quantile(taken, 0.5),
        p99Ms: quantile(taken, 0.99),
        /** Every delay, for summaries over several subscribers. */
        all: taken,
      };
    },
    /** Counts connection losses (a broker dropping a slow reader). */
    onClose: (listener: () => void) => client.on('close', listener),
    close: () => client.endAsync(true),
  };
}
