/**
 * Whether an MQTT topic filter (with `+` and `#` wildcards) matches a topic name, as the broker
 * decides it (MQTT 3.1.1 §4.7): several subscriptions of one connection may match one message,
 * and each of their listeners hears it once.
 */
export function topicMatches(filter: string, topic: string): boolean {
  const wanted = filter.split('/');
  const levels = topic.split('/');
  for (let index = 0; index < wanted.length; index += 1) {
    const part = wanted[index]!;
    if (part === '#') return true;
    const level = levels[index];
    if (level === undefined) return false;
    if (part !== '+' && part !== level) return false;
  }
  return wanted.length === levels.length;
}
