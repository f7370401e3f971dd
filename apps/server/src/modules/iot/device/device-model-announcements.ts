import { AnnouncedCache, EVERYTHING } from '../../../db/announced-cache';
import type { Database } from '../../../db/database';
import type { DeviceDirectory } from './device-directory';

/**
 * Where the database announces what ingestion resolves a device to (db/device-notify.sql): a
 * device added or moved to another product or name (`{tenantId}:{deviceId}`), a product's thing
 * model changed or a product removed (`{tenantId}`).
 */
export const DEVICE_MODEL_CHANNEL = 'shuili_device_model';

/**
 * Makes this node's device directory forget what another node changed, as the change commits
 * (the node that made it forgets through its entity hooks already); answers the listener to
 * start and stop with the server. While it does not listen (a lost connection, until it listens
 * again), the directory forgets everything once and its entries' TTL bounds the rest.
 */
export function announceDeviceModelChanges(
  db: Database,
  directory: Pick<DeviceDirectory, 'invalidate' | 'clear'>,
): { start(): Promise<void>; stop(): Promise<void> } {
  // Used for its listening alone (reconnects, EVERYTHING after a loss): it remembers nothing.
  const feed = new AnnouncedCache<never>(db, {
    channel: DEVICE_MODEL_CHANNEL,
    ttlMs: 0,
    capacity: 0,
  });
  feed.watch((payload) => {
    if (payload === EVERYTHING) return directory.clear();
    const [tenantId, deviceId] = payload.split(':');
    if (tenantId) directory.invalidate(tenantId, deviceId || undefined);
  });
  return { start: () => feed.start(), stop: () => feed.stop() };
}
