/** Immutable edits of the thing model's ordered lists (rows keep the order devices see). */

export function moveItem<T>(items: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) {
    return [...items];
  }
  const next = [...items];
  const [moved] = next.splice(index, 1);
  next.splice(target, 0, moved!);
  return next;
}

/** Puts `item` at `index`, or appends it when the index is undefined (a new row). */
export function putItem<T>(items: readonly T[], item: T, index: number | undefined): T[] {
  if (index === undefined) return [...items, item];
  return items.map((current, at) => (at === index ? item : current));
}

export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, at) => at !== index);
}

/** Whether another row than `index` already uses the key. */
export function keyTaken(
  items: readonly { key: string }[],
  key: string,
  index: number | undefined,
): boolean {
  return items.some((item, at) => at !== index && item.key === key);
}
