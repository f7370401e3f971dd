const INTERACTIONS = ['pointerdown', 'pointermove', 'keydown', 'focusin', 'touchstart'] as const;
const waiting = new Set<() => void>();
let armed = false;

function interacted(): void {
  for (const type of INTERACTIONS) document.removeEventListener(type, interacted, true);
  armed = false;
  const callbacks = [...waiting];
  waiting.clear();
  for (const callback of callbacks) callback();
}

/**
 * Runs the callback the first time the visitor does anything on the page (moves the pointer,
 * touches, types, tabs). Code a page needs only once someone uses it starts downloading then: by
 * the time a hand reaches the control it is there, and a page nobody touches (a crawler, an
 * audit) never pays for it.
 */
export function onFirstInteraction(callback: () => void): void {
  waiting.add(callback);
  if (armed) return;
  armed = true;
  for (const type of INTERACTIONS) {
    document.addEventListener(type, interacted, { capture: true, passive: true });
  }
}
