/** Called when devices or products of a tenant change (no device id: any of the tenant's). */
export type DeviceChangeListener = (tenantId: string, deviceId?: string) => void;

/**
 * Tells caches keyed by device (the ingest directory) that a device or product was written, so
 * identities and thing models are reread. Listeners must be quick and must not throw.
 */
export class DeviceChanges {
  private readonly listeners = new Set<DeviceChangeListener>();

  subscribe(listener: DeviceChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(tenantId: string, deviceId?: string): void {
    for (const listener of this.listeners) listener(tenantId, deviceId);
  }
}
