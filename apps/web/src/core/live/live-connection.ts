import { BROWSER_CLIENT_PREFIX } from '@shuili/contract';
import { useSessionStore } from '../session-store';
import { getToken } from '../../lib/auth-storage';
import { refreshAccessToken } from '../../lib/oauth';
import { useLiveStore, type LiveStatus } from './live-store';
import { MiniMqttClient } from './mini-mqtt';
import { topicMatches } from './topic-filter';

/** One message of a live topic: its text, and the JSON it holds (undefined when it is none). */
export interface LiveMessage {
  topic: string;
  text: string;
  payload: unknown;
}

export type LiveListener = (message: LiveMessage) => void;

/** Spec §1: keepalive 60 s, connect timeout 40000 ms, clean session, no automatic reconnect. */
export const LIVE_OPTIONS = {
  keepalive: 60,
  connectTimeout: 40_000,
  clean: true,
  reconnectPeriod: 0,
} as const;

/** CONNACK return codes (MQTT 3.1.1) that mean the token was not accepted. */
const REFUSED_CREDENTIALS = new Set([4, 5, 134, 135]);

// Listeners per topic filter: the filter is subscribed while at least one listener wants it.
const listeners = new Map<string, Set<LiveListener>>();
let client: MiniMqttClient | undefined;
let stopWatchingSession: (() => void) | undefined;
// A refused token is refreshed once per attempt the user (or a first screen) starts.
let refreshedForAttempt = false;

/** Same host and port as the console: the server carries MQTT over WebSocket on /mqtt. */
export function liveUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/mqtt`;
}

function randomPart(): string {
  // getRandomValues also works outside secure contexts (a plain-http intranet address).
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function setStatus(status: LiveStatus, reason?: string) {
  if (status === 'connecting') useLiveStore.setState({ status });
  else useLiveStore.setState({ status, reason, dropped: status === 'disconnected' });
}

function decode(topic: string, payload: Uint8Array): LiveMessage {
  const text = new TextDecoder().decode(payload);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { topic, text, payload: parsed };
}

function dispatch(message: LiveMessage): void {
  for (const [filter, set] of listeners) {
    if (!topicMatches(filter, message.topic)) continue;
    for (const listener of [...set]) {
      try {
        listener(message);
      } catch (error) {
        // One screen's bad handler must not starve the others of the message.
        console.error(error);
      }
    }
  }
}

/** The session ended (sign-out, expired refresh): the connection ends with it. */
function watchSession(): void {
  stopWatchingSession ??= useSessionStore.subscribe((state) => {
    if (state.status !== 'ready') closeLive();
  });
}

async function open(): Promise<void> {
  const user = useSessionStore.getState().user;
  const token = getToken();
  if (!user || !token) return;
  watchSession();
  setStatus('connecting');

  let reason: string | undefined;
  // Clean session and no automatic reconnect are all the console's own client does.
  const next = new MiniMqttClient(liveUrl(), {
    keepalive: LIVE_OPTIONS.keepalive,
    connectTimeout: LIVE_OPTIONS.connectTimeout,
    clientId: `${BROWSER_CLIENT_PREFIX}${user.tenantCode}:${randomPart()}`,
    username: user.username,
    password: token,
  });
  client = next;

  next.on('connect', () => {
    if (client !== next) return;
    refreshedForAttempt = false;
    setStatus('connected');
    const filters = [...listeners.keys()];
    if (filters.length > 0) next.subscribe(filters, { qos: 0 });
  });
  next.on('message', (topic, payload) => {
    if (client === next) dispatch(decode(topic, payload));
  });
  next.on('error', (error) => {
    reason = error.message;
    const code = (error as { code?: unknown }).code;
    if (
      typeof code === 'number' &&
      REFUSED_CREDENTIALS.has(code) &&
      !refreshedForAttempt &&
      client === next
    ) {
      // The access token expired since sign-in: refresh it once and try again.
      refreshedForAttempt = true;
      client = undefined;
      next.end(true);
      void refreshAccessToken().then((fresh) => {
        if (fresh) start();
        else setStatus('disconnected', reason);
      });
    }
  });
  next.on('close', () => {
    if (client !== next) return;
    client = undefined;
    next.end(true);
    setStatus('disconnected', reason);
  });
}

/** Opens the tab's connection if no screen has needed it yet (it stays closed after a drop). */
export function ensureLive(): void {
  if (useLiveStore.getState().status === 'idle') start();
}

let opening: Promise<void> | undefined;

function start(): void {
  if (client || opening) return;
  opening = open().finally(() => {
    opening = undefined;
  });
}

/** The user's reconnect after a drop (spec §1: nothing reconnects by itself). */
export function reconnectLive(): void {
  if (client || opening) return;
  refreshedForAttempt = false;
  start();
}

/** Ends the connection for good (sign-out); the next screen needing it opens a new one. */
export function closeLive(): void {
  const current = client;
  client = undefined;
  current?.end(true);
  setStatus('idle');
}

/**
 * Listens to a topic filter of the tab's connection; answers the function that stops listening.
 * Filters are reference-counted: subscribed for the first listener, unsubscribed after the last.
 */
export function subscribeLive(filter: string, listener: LiveListener): () => void {
  let set = listeners.get(filter);
  if (!set) {
    set = new Set();
    listeners.set(filter, set);
    if (client?.connected) client.subscribe(filter, { qos: 0 });
  }
  set.add(listener);
  ensureLive();
  const own = set;
  return () => {
    own.delete(listener);
    if (own.size > 0 || listeners.get(filter) !== own) return;
    listeners.delete(filter);
    if (client?.connected) client.unsubscribe(filter);
  };
}
