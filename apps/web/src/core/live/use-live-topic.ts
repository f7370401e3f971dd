import { useEffect, useRef } from 'react';
import { subscribeLive, type LiveMessage } from './live-connection';

/**
 * Calls `onMessage` for every message of a topic filter while the component is mounted (the
 * tab's one connection opens on first use). No topic: nothing is subscribed yet.
 */
export function useLiveTopic(
  topic: string | undefined,
  onMessage: (message: LiveMessage) => void,
): void {
  const latest = useRef(onMessage);
  useEffect(() => {
    latest.current = onMessage;
  });
  useEffect(() => {
    if (!topic) return undefined;
    return subscribeLive(topic, (message) => latest.current(message));
  }, [topic]);
}
