import type { LedElement, LedElementType, LedPage } from '@shuili/contract';

/** A new page: 10 seconds on black, nothing on it. */
export const newPage = (): LedPage => ({
  durationSeconds: 10,
  background: '#000000',
  elements: [],
});

/** An id no element of the page has (`text1`, `live2` ...). */
export function freeId(page: LedPage, type: LedElementType): string {
  const taken = new Set(page.elements.map((element) => element.id));
  for (let n = 1; ; n++) if (!taken.has(`${type}${n}`)) return `${type}${n}`;
}

/**
 * A new element of a type in the screen's top left quarter (moved down for each one added, so
 * they do not hide each other), sized to fit the screen.
 */
export function newElement(
  page: LedPage,
  type: LedElementType,
  resolution: { width: number; height: number },
  caption: string,
): LedElement {
  const height = Math.min(type === 'image' ? 32 : 20, resolution.height);
  // Half the screen's width for words: room to place a second one beside it.
  const width = Math.min(type === 'image' ? 48 : 96, resolution.width);
  const y = Math.min((page.elements.length * 8) % resolution.height, resolution.height - height);
  return {
    id: freeId(page, type),
    type,
    x: 0,
    y,
    width,
    height,
    color: type === 'live' ? '#00ff66' : '#ffcc00',
    fontSize: 16,
    align: 'left',
    text: type === 'image' ? '' : caption,
  };
}

const clamp = (value: number, low: number, high: number) =>
  Math.round(Math.min(high, Math.max(low, value)));

/** An element moved by a drag of (dx, dy) screen pixels from where it was, kept on the screen. */
export function moved(
  element: LedElement,
  from: { x: number; y: number },
  dx: number,
  dy: number,
  resolution: { width: number; height: number },
): LedElement {
  return {
    ...element,
    x: clamp(from.x + dx, 0, Math.max(0, resolution.width - element.width)),
    y: clamp(from.y + dy, 0, Math.max(0, resolution.height - element.height)),
  };
}

/** An element resized by a drag of its corner, at least a pixel, never past the screen's edge. */
export function resized(
  element: LedElement,
  from: { width: number; height: number },
  dx: number,
  dy: number,
  resolution: { width: number; height: number },
): LedElement {
  return {
    ...element,
    width: clamp(from.width + dx, 1, resolution.width - element.x),
    height: clamp(from.height + dy, 1, resolution.height - element.y),
  };
}

/** The page and element a server field error names (`pages.0.elements.2.binding.property`). */
export function problemTarget(field: string): { page: number; element?: number } | undefined {
  const match = /^pages\.(\d+)(?:\.elements\.(\d+))?/.exec(field);
  if (!match) return undefined;
  return {
    page: Number(match[1]),
    ...(match[2] !== undefined ? { element: Number(match[2]) } : {}),
  };
}
