/** The grid's layouts: 1, 4 or 9 cells (1 × 1, 2 × 2, 3 × 3). */
export const GRID_LAYOUTS = [1, 4, 9] as const;
export type GridLayout = (typeof GRID_LAYOUTS)[number];

/** Columns of a layout. */
export const columnsOf = (layout: GridLayout): number => Math.round(Math.sqrt(layout));

/**
 * The cells after a camera was picked for one: it moves there (a camera plays in one cell at a
 * time, so it leaves the cell it was in) and the next cell is the one a further pick fills.
 */
export function placeCamera(
  cells: readonly (string | undefined)[],
  cell: number,
  cameraId: string,
  layout: GridLayout,
): { cells: (string | undefined)[]; next: number } {
  const placed = cells.map((id) => (id === cameraId ? undefined : id));
  placed[cell] = cameraId;
  return { cells: placed, next: (cell + 1) % layout };
}

/**
 * The cells for the cameras now listed: those still listed stay where they are, and empty cells
 * of the layout take the first cameras not shown yet (the grid opens full).
 */
export function fillCells(
  cells: readonly (string | undefined)[],
  cameraIds: readonly string[],
  layout: GridLayout,
): (string | undefined)[] {
  const listed = new Set(cameraIds);
  const kept = Array.from({ length: 9 }, (_, index) => {
    const id = cells[index];
    return id !== undefined && listed.has(id) ? id : undefined;
  });
  const waiting = cameraIds.filter((id) => !kept.includes(id));
  for (let index = 0; index < layout && waiting.length > 0; index++)
    if (kept[index] === undefined) kept[index] = waiting.shift();
  return kept;
}
