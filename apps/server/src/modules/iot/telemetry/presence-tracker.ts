import type { DeviceUpdate } from './ingest.repo';

interface State {
  online: boolean | undefined;
  seenWrittenAt: number;
}

/**
 * What this node knows of each device's presence, so that iot_device is written when the online
 * state changes and its last_seen at most every `throttleMs` (not on every reading).
 */
export class PresenceTracker {
  private readonly states = new Map<string, State>();

  constructor(private readonly throttleMs = 5_000) {}

  private stateOf(tenantId: string, deviceId: string): State {
    const id = `${tenantId}/${deviceId}`;
    let state = this.states.get(id);
    if (!state) {
      state = { online: undefined, seenWrittenAt: Number.NEGATIVE_INFINITY };
      this.states.set(id, state);
    }
    return state;
  }

  /** The device sent something: it is online. Answers the write to make (if any) and whether
   * its online state changed. */
  seen(
    tenantId: string,
    deviceId: string,
    at: Date,
  ): { update: DeviceUpdate | undefined; changed: boolean } {
    return this.set(tenantId, deviceId, true, at);
  }

  /**
   * `written` says the online state is always to be written: for a connect or disconnect (rare),
   * as another node may have written the opposite since this one last did (behind a load
   * balancer, a device's connections and status messages reach any node), so this node's memory
   * of "unchanged" is not the table's.
   */
  set(
    tenantId: string,
    deviceId: string,
    online: boolean,
    at: Date,
    written: 'always' | 'whenChanged' = 'whenChanged',
  ): { update: DeviceUpdate | undefined; changed: boolean } {
    const state = this.stateOf(tenantId, deviceId);
    const changed = state.online !== online;
    const due = at.getTime() - state.seenWrittenAt >= this.throttleMs;
    if (written === 'always') {
      state.online = online;
      state.seenWrittenAt = at.getTime();
      return { update: { tenantId, deviceId, seenAt: at, online }, changed };
    }
    if (!changed && !due) return { update: undefined, changed };
    state.online = online;
    state.seenWrittenAt = at.getTime();
    return {
      update: { tenantId, deviceId, seenAt: at, online: changed ? online : null },
      changed,
    };
  }

  /** The device is gone (deleted): forget it. */
  forget(tenantId: string, deviceId: string): void {
    this.states.delete(`${tenantId}/${deviceId}`);
  }
}
