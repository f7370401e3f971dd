import type { TransportState } from '@shuili/server/mqtt/device-transport';

/**
 * What a server's /api/health says of its broker side (state, consumers, what it stored and
 * adopted); undefined while it does not answer (stopped, killed, or no answer within 5 s).
 */
export function brokerHealth(url: string): Promise<TransportState | undefined> {
  return fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) })
    .then(async (response) => (await response.json()) as { data: { broker: TransportState } })
    .then((body) => body.data.broker)
    .catch(() => undefined);
}
