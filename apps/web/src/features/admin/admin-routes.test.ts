import { ENTITIES } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { asyncRoutes } from '../../app/async-routes';
import { flattenPaths, routeTrails } from '../../app/generate-routes';

describe('admin routes', () => {
  const screens = routeTrails(asyncRoutes).filter((entry) => entry.trail.at(-1)?.route.page);

  it('gives every declared entity a screen at its route', () => {
    const paths = new Set(flattenPaths(asyncRoutes));
    expect(ENTITIES.map((entity) => entity.route).filter((route) => !paths.has(route))).toEqual([]);
  });

  it('titles every screen with a route.* key and names it uniquely', () => {
    const titles = screens.map((entry) => entry.trail.at(-1)!.route.meta?.title ?? '');
    expect(titles.filter((title) => !title.startsWith('route.'))).toEqual([]);
    const names = screens.map((entry) => entry.trail.at(-1)!.route.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
