import type { TransportEndpoints } from '../../../mqtt/device-transport';

/**
 * The broker addresses a device is told to use: the configured public ones (MQTT_PUBLIC_URLS)
 * when set, else the ones this server answers on as the caller reached it (its host name; the
 * TCP, TLS and WebSocket listeners that are actually running).
 */
export function credentialUrls(
  publicUrls: string[],
  endpoints: TransportEndpoints | undefined,
  request: { protocol: string; host: string; hostname: string },
): string[] {
  if (publicUrls.length > 0) return publicUrls;
  if (!endpoints) return [];
  if (endpoints.externalUrl) return [endpoints.externalUrl];
  const urls: string[] = [];
  if (endpoints.tcpPort) urls.push(`mqtt://${request.hostname}:${endpoints.tcpPort}`);
  if (endpoints.tlsPort) urls.push(`mqtts://${request.hostname}:${endpoints.tlsPort}`);
  const ws = request.protocol === 'https' ? 'wss' : 'ws';
  urls.push(`${ws}://${request.host}${endpoints.wsPath}`);
  return urls;
}
