// Where each kept-alive screen was scrolled to, by pathname (spec §2 tags view: a cached view
// comes back as it was left). Screens that are not kept open at the top.
const positions = new Map<string, number>();

/** Scroll positions of kept-alive screens. */
export const scrollMemory = {
  save(path: string, top: number): void {
    positions.set(path, top);
  },
  /** Forgets the screens no longer kept alive. */
  keepOnly(paths: readonly string[]): void {
    for (const path of positions.keys()) if (!paths.includes(path)) positions.delete(path);
  },
  /** Where a screen opens: where it was left if it was kept alive, else the top. */
  positionOf(path: string): number {
    return positions.get(path) ?? 0;
  },
};
