import { useCallback, useEffect, useState } from 'react';

/**
 * Whether `share` (0-1) of an element has come into view (once true, stays true), and the ref to
 * put on it: parts below the fold (the map, the newest records) download their code when the
 * reader scrolls to them, not when their top edge peeks in.
 */
export function useSeen(share = 0): [ref: (element: Element | null) => void, seen: boolean] {
  const [element, setElement] = useState<Element | null>(null);
  const [seen, setSeen] = useState(false);
  const ref = useCallback((next: Element | null) => setElement(next), []);
  useEffect(() => {
    if (seen || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= share))
          setSeen(true);
      },
      { threshold: share },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen, share]);
  return [ref, seen];
}
