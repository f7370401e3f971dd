/** MQTT over TCP (mqtt://, tcp://) or TLS (mqtts://, ssl://, tls://): what the consumers speak. */
const SCHEMES: Record<string, { tls: boolean; port: number }> = {
  'mqtt:': { tls: false, port: 1883 },
  'tcp:': { tls: false, port: 1883 },
  'mqtts:': { tls: true, port: 8883 },
  'ssl:': { tls: true, port: 8883 },
  'tls:': { tls: true, port: 8883 },
};

/**
 * Where the consumers connect for an MQTT_URL, or undefined for one they cannot use: a broker's
 * WebSocket listener (ws://, wss://) is for browsers; the consumers need its TCP or TLS one.
 */
export function consumerAddress(
  url: string,
): { host: string; port: number; tls: boolean } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = SCHEMES[parsed.protocol];
  if (!scheme || !parsed.hostname) return undefined;
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : scheme.port,
    tls: scheme.tls,
  };
}
