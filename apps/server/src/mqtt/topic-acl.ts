import { UPLINK_CHANNELS, deviceTopic, parseDeviceTopic } from '@shuili/contract';
import type { MqttPrincipal } from './mqtt-principal';

const uplinks: readonly string[] = UPLINK_CHANNELS;

/** A device publishes only up its own topics; browsers publish nothing (DESIGN §6). */
export function mayPublish(principal: MqttPrincipal, topic: string): boolean {
  if (principal.kind !== 'device') return false;
  const parsed = parseDeviceTopic(topic);
  return (
    parsed !== undefined &&
    parsed.tenantCode === principal.tenantCode &&
    parsed.deviceNo === principal.deviceNo &&
    uplinks.includes(parsed.channel)
  );
}

/**
 * A device subscribes to its own command topic only. A browser subscribes inside its tenant
 * (`t/{tenantCode}/...`, wildcards allowed below the tenant level) but never to another user's
 * bell; what a wildcard would reach beyond that is cut by {@link mayReceive}.
 */
export function maySubscribe(principal: MqttPrincipal, filter: string): boolean {
  if (principal.kind === 'device')
    return filter === deviceTopic(principal.tenantCode, principal.deviceNo, 'cmd');
  if (principal.kind !== 'browser') return false;
  const levels = filter.split('/');
  if (levels.length < 3 || levels[0] !== 't' || levels[1] !== principal.tenantCode) return false;
  const user = levels[3];
  if (levels[2] === 'u' && user !== undefined && user !== '+' && user !== '#')
    return user === principal.userId;
  return true;
}

/** The last gate before a message goes out to a client: it must be meant for them. */
export function mayReceive(principal: MqttPrincipal, topic: string): boolean {
  if (principal.kind === 'device')
    return topic === deviceTopic(principal.tenantCode, principal.deviceNo, 'cmd');
  if (principal.kind !== 'browser') return false;
  const levels = topic.split('/');
  if (levels[0] !== 't' || levels[1] !== principal.tenantCode) return false;
  return levels[2] !== 'u' || levels[3] === principal.userId;
}
