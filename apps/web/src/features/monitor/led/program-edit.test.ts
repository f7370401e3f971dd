import type { LedPage } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { moved, newElement, newPage, problemTarget, resized } from './program-edit';

const screen = { width: 192, height: 96 };

describe('the LED editor’s element moves', () => {
  it('gives new elements free ids, inside the screen', () => {
    const page: LedPage = newPage();
    const first = newElement(page, 'text', screen, 'Text');
    page.elements.push(first);
    const second = newElement(page, 'text', screen, 'Text');
    expect([first.id, second.id]).toEqual(['text1', 'text2']);
    expect(second.y + second.height).toBeLessThanOrEqual(96);
    expect(newElement(page, 'image', { width: 32, height: 16 }, '')).toMatchObject({
      width: 32,
      height: 16,
    });
  });

  it('keeps a dragged element on the screen and a resized one inside it', () => {
    const element = { ...newElement(newPage(), 'text', screen, 'A'), width: 50, height: 20 };
    expect(moved(element, { x: 10, y: 10 }, 500, -30, screen)).toMatchObject({ x: 142, y: 0 });
    expect(moved(element, { x: 10, y: 10 }, 5.4, 3.6, screen)).toMatchObject({ x: 15, y: 14 });
    const placed = { ...element, x: 150, y: 80 };
    expect(resized(placed, { width: 30, height: 10 }, 100, 100, screen)).toMatchObject({
      width: 42,
      height: 16,
    });
    expect(resized(placed, { width: 30, height: 10 }, -100, -100, screen)).toMatchObject({
      width: 1,
      height: 1,
    });
  });

  it('reads the page and element a server error names', () => {
    expect(problemTarget('pages.1.elements.3.binding.property')).toEqual({ page: 1, element: 3 });
    expect(problemTarget('pages.2')).toEqual({ page: 2 });
    expect(problemTarget('width')).toBeUndefined();
  });
});
