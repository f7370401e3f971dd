/** Rows written between two yields, so a 100,000-row export does not stall other requests. */
export const ROWS_PER_SLICE = 1000;

/** Lets I/O callbacks (and the zip / pdf streams' consumers) run before the next slice. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
