import { create } from 'zustand';

/**
 * The tab's live connection as the shell shows it: `idle` until a screen first needs live data,
 * `disconnected` after a drop (spec §1: no automatic reconnect, the user reconnects).
 */
export type LiveStatus = 'idle' | 'connecting' | 'connected' | 'disconnected';

export interface LiveState {
  status: LiveStatus;
  /** Why the last attempt or connection ended, in the broker's or the socket's words. */
  reason: string | undefined;
  /** A connection dropped or failed and no new one has succeeded since: the shell says so. */
  dropped: boolean;
}

export const useLiveStore = create<LiveState>(() => ({
  status: 'idle',
  reason: undefined,
  dropped: false,
}));
