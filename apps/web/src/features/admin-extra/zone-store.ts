import { useEffect } from 'react';
import { create } from 'zustand';
import { useSessionStore } from '../../core/session-store';
import { adminExtraApi } from './admin-extra-api';
import { zoneIdsOf, zoneListOf, type ZoneOption } from './zone-list';

/** Spec §3 zone state, with how far loading it has got. */
export interface ZoneState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Every zone id of the user, joined by commas. */
  zoneIds: string;
  /** The user's zones as a tree, top level reversed, zones holding others disabled. */
  zoneList: ZoneOption[];
}

const empty: ZoneState = { status: 'idle', zoneIds: '', zoneList: [] };

export const useZoneStore = create<ZoneState>(() => ({ ...empty }));

let loading: Promise<void> | undefined;
// Bumped by every reset: an answer for an ended session is dropped.
let generation = 0;

/**
 * Loads the signed-in user's zones (spec §2: the monitoring screens do before entering). Loads
 * once per session; `force` asks again, e.g. after the user's zones were reassigned. Calls made
 * while a load is under way share it.
 */
export function loadZones(options: { force?: boolean } = {}): Promise<void> {
  const { status } = useZoneStore.getState();
  if (loading) return loading;
  if (status === 'ready' && !options.force) return Promise.resolve();
  const mine = generation;
  // A refresh keeps showing the zones it has; only a first load is "loading".
  if (status !== 'ready') useZoneStore.setState({ status: 'loading' });
  loading = adminExtraApi
    .currentZones()
    .then(
      (zones) => {
        if (mine !== generation) return;
        useZoneStore.setState({
          status: 'ready',
          zoneIds: zoneIdsOf(zones),
          zoneList: zoneListOf(zones),
        });
      },
      (error: unknown) => {
        if (mine !== generation) return;
        // A failed refresh keeps the zones already loaded.
        if (useZoneStore.getState().status !== 'ready') useZoneStore.setState({ status: 'error' });
        throw error;
      },
    )
    .finally(() => {
      if (mine === generation) loading = undefined;
    });
  return loading;
}

/** Forgets the zones (the session ended or changed hands). */
export function resetZones(): void {
  generation += 1;
  loading = undefined;
  useZoneStore.setState({ ...empty });
}

// Spec §4: a logout or token reset forgets the user's state; the zones go with it.
useSessionStore.subscribe((state, previous) => {
  if (previous.status === 'ready' && state.status !== 'ready') resetZones();
});

/**
 * The route guard of the zone-scoped monitoring screens: starts loading the user's zones and
 * says whether they are there. A screen renders its content once this is true (ZonesGate does
 * that, with the progress bar and a retry on failure).
 */
export function useZonesReady(): boolean {
  const status = useZoneStore((state) => state.status);
  useEffect(() => {
    // The HTTP client has reported a failure; the gate offers a retry.
    if (status === 'idle') loadZones().catch(() => undefined);
  }, [status]);
  return status === 'ready';
}
