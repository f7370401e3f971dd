import { UPLINK_CHANNELS, deviceTopic, liveTopicSubject, parseDeviceTopic } from '@shuili/contract';
import type { MqttPrincipal } from './mqtt-principal';

const uplinks: readonly string[] = UPLINK_CHANNELS;
const TENANT_CODE = /^[a-z][a-z0-9_-]*$/;
/** `$share/{group}/` in front of a filter (MQTT 5 §4.8.2); brokers may show it to the ACL or not. */
const SHARED = /^\$share\/[^/+#]+\//;

/**
 * A device publishes only up its own topics; browsers publish nothing (DESIGN §6). The server
 * (external mode) sends commands and live pushes: a tenant's topics, but never a device's uplink.
 */
export function mayPublish(principal: MqttPrincipal, topic: string): boolean {
  if (principal.kind === 'server') return serverMayPublish(topic);
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
 * bell; what a wildcard would reach beyond that is cut by {@link mayReceive}. The server
 * (external mode) reads every tenant's topics, shared (`$share/{group}/t/...`) or not.
 */
export function maySubscribe(principal: MqttPrincipal, filter: string): boolean {
  if (principal.kind === 'server') return filter.replace(SHARED, '').split('/')[0] === 't';
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

/**
 * The last gate before a message goes out to a client: it must be meant for them. A browser
 * gets its own bell, and news of a device only when its live filter (the grants and zones its
 * user has now, as over HTTP) allows that kind of news of that device; nothing else.
 */
export function mayReceive(principal: MqttPrincipal, topic: string): boolean {
  if (principal.kind === 'server') return topic.split('/')[0] === 't';
  if (principal.kind === 'device')
    return topic === deviceTopic(principal.tenantCode, principal.deviceNo, 'cmd');
  if (principal.kind !== 'browser') return false;
  const levels = topic.split('/');
  if (levels[0] !== 't' || levels[1] !== principal.tenantCode) return false;
  const subject = liveTopicSubject(topic);
  if (subject.kind === 'user') return subject.userId === principal.userId;
  // Nothing else is published for browsers: what is not known to be theirs is not sent.
  if (subject.kind === 'other') return false;
  const live = principal.live;
  return (
    live !== undefined &&
    live.streams.has(subject.stream) &&
    (live.deviceNos === null || live.deviceNos.has(subject.deviceNo))
  );
}

function serverMayPublish(topic: string): boolean {
  const levels = topic.split('/');
  if (levels[0] !== 't' || !TENANT_CODE.test(levels[1] ?? '') || levels.length < 3) return false;
  if (levels.some((level) => level === '' || level.includes('+') || level.includes('#')))
    return false;
  if (levels[2] !== 'd') return true;
  return parseDeviceTopic(topic)?.channel === 'cmd';
}
