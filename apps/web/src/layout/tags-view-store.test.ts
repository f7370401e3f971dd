import type { SysUser } from '@shuili/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { asyncRoutes } from '../app/async-routes';
import type { AppRoute } from '../core/app-route';
import { TAB_VIEWS_KEY, viewClosers } from '../core/end-session';
import { loadRouteTables, provideRouteTables } from '../core/route-tables';
import { useSessionStore } from '../core/session-store';
import {
  addView,
  affixTags,
  afterClosing,
  delAllViews,
  delOthersViews,
  delView,
  parseSavedViews,
  tagsView,
  tagViewOf,
  updateVisitedView,
  useTagsViewStore,
  type TagView,
  type TagsViewState,
} from './tags-view-store';

const Page = Object.assign(() => null, {});

function view(path: string, meta: TagView['meta'] = {}, title = `route.${path.slice(1)}`): TagView {
  return { path, fullPath: path, name: path, title, meta };
}

const home = view('/home/workbench', { affix: true });
const profile = view('/profile/index');
const notes = view('/mynotification', { noCache: true });
const report = view('/report');

const empty: TagsViewState = { visitedViews: [], cachedViews: [] };
const paths = (state: TagsViewState) => state.visitedViews.map((v) => v.path);

function opened(...views: TagView[]): TagsViewState {
  return views.reduce(addView, empty);
}

describe('add', () => {
  it('records a view once in visited and in cached', () => {
    const state = addView(addView(empty, profile), { ...profile, fullPath: '/profile/index?x=1' });
    expect(paths(state)).toEqual(['/profile/index']);
    expect(state.visitedViews[0]?.fullPath).toBe('/profile/index');
    expect(state.cachedViews).toEqual(['/profile/index']);
  });

  it('does not cache noCache views', () => {
    const state = opened(profile, notes);
    expect(paths(state)).toEqual(['/profile/index', '/mynotification']);
    expect(state.cachedViews).toEqual(['/profile/index']);
  });

  it("names a view without a title 'no-name'", () => {
    expect(addView(empty, view('/x', {}, '')).visitedViews[0]?.title).toBe('no-name');
  });
});

describe('delete', () => {
  it('removes the view from visited and cached', () => {
    const state = delView(opened(home, profile, report), profile);
    expect(paths(state)).toEqual(['/home/workbench', '/report']);
    expect(state.cachedViews).toEqual(['/home/workbench', '/report']);
  });

  it('keeps affixed tabs and the chosen one on delete others; only the chosen one stays cached', () => {
    const state = delOthersViews(opened(profile, home, report, notes), report);
    expect(paths(state)).toEqual(['/home/workbench', '/report']);
    expect(state.cachedViews).toEqual(['/report']);
  });

  it('caches nothing after delete others on a noCache view', () => {
    expect(delOthersViews(opened(home, profile, notes), notes).cachedViews).toEqual([]);
  });

  it('keeps only the affixed tabs on delete all, and empties the cache', () => {
    const state = delAllViews(opened(profile, home, report));
    expect(paths(state)).toEqual(['/home/workbench']);
    expect(state.cachedViews).toEqual([]);
  });
});

describe('update', () => {
  it('merges into the entry with the same path only', () => {
    const state = updateVisitedView(opened(home, profile), {
      path: '/profile/index',
      fullPath: '/profile/index?tab=2',
    });
    expect(state.visitedViews[1]).toEqual({ ...profile, fullPath: '/profile/index?tab=2' });
    expect(state.visitedViews[0]).toEqual(home);
    const same = opened(home);
    expect(updateVisitedView(same, { path: '/nowhere', title: 'x' })).toBe(same);
  });
});

describe('closing the active tab', () => {
  it('goes to the last visited tab', () => {
    const left = delView(opened(home, profile, report), report).visitedViews;
    expect(afterClosing(left, report, '/home/workbench')).toEqual({
      to: '/profile/index',
      refresh: false,
    });
  });

  it('refreshes home when nothing is left and home was closed, else goes to /', () => {
    expect(afterClosing([], home, '/home/workbench')).toEqual({
      to: '/home/workbench',
      refresh: true,
    });
    expect(afterClosing([], profile, '/home/workbench')).toEqual({ to: '/', refresh: false });
  });
});

describe('routes', () => {
  const routes: AppRoute[] = [
    {
      path: '/home',
      redirect: '/home/workbench',
      children: [
        { path: 'workbench', page: Page, meta: { title: 'route.workbench', affix: true } },
      ],
    },
    { path: '/detail/:id', page: Page, meta: { title: 'detail', affix: true } },
    { path: '/profile', page: Page, meta: { title: 'route.profile', noCache: true } },
  ];

  it('makes affixed tabs of routes with meta.affix and a fixed path', () => {
    expect(affixTags(routes)).toEqual([
      {
        path: '/home/workbench',
        fullPath: '/home/workbench',
        name: '/home/workbench',
        title: 'route.workbench',
        meta: { affix: true, noCache: undefined },
      },
    ]);
  });

  it('builds a tab from a route and where the user is', () => {
    expect(tagViewOf(routes[2]!, '/profile', '/profile?a=1')).toMatchObject({
      path: '/profile',
      fullPath: '/profile?a=1',
      title: 'route.profile',
      meta: { noCache: true },
    });
  });
});

describe('store', () => {
  it('shows affixed tabs before they are cached; a token reset keeps them, logout closes them', () => {
    useSessionStore.setState({ status: 'ready' });
    tagsView.addAffixed([home]);
    tagsView.add(profile);
    expect(paths(useTagsViewStore.getState())).toEqual(['/home/workbench', '/profile/index']);
    expect(useTagsViewStore.getState().cachedViews).toEqual(['/profile/index']);

    useSessionStore.setState({ status: 'empty' });
    expect(paths(useTagsViewStore.getState())).toEqual(['/home/workbench', '/profile/index']);

    viewClosers.forEach((close) => close());
    expect(useTagsViewStore.getState()).toEqual(empty);
  });
});

describe('tabs kept across a token reset (spec §4)', () => {
  beforeAll(async () => {
    provideRouteTables(() =>
      Promise.resolve({ constantRoutes: [], asyncRoutes, preloadScreens: () => undefined }),
    );
    await loadRouteTables();
  });

  const saved = (owner: string, views: unknown) => JSON.stringify({ owner, views });
  const user = (id: string) => ({ id, tenantCode: 'demo' }) as SysUser;

  it('reads only the owner’s saved tabs, and only paths inside the app', () => {
    const text = saved('demo/7', [home, profile, { ...report, fullPath: '//evil.example' }, null]);
    expect(parseSavedViews(text, 'demo/7').map((v) => v.path)).toEqual([
      '/home/workbench',
      '/profile/index',
    ]);
    expect(parseSavedViews(text, 'demo/8')).toEqual([]);
    expect(parseSavedViews('{not json', 'demo/7')).toEqual([]);
    expect(parseSavedViews(null, 'demo/7')).toEqual([]);
  });

  it('gives the same user their tabs back after a reload, and nobody else', () => {
    const storage = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    });
    try {
      // As a Re-Login leaves it: the page reloaded (nothing in memory), the tabs saved.
      storage.set(TAB_VIEWS_KEY, saved('demo/7', [home, profile]));
      useSessionStore.setState({ status: 'ready', user: user('7'), routes: [] });
      expect(paths(useTagsViewStore.getState())).toEqual(['/home/workbench', '/profile/index']);
      tagsView.add(notes);
      expect(JSON.parse(storage.get(TAB_VIEWS_KEY)!)).toMatchObject({ owner: 'demo/7' });

      // Another user signs in in this tab after a reset: they start afresh.
      useSessionStore.setState({ status: 'empty', user: undefined });
      useSessionStore.setState({ status: 'ready', user: user('8'), routes: [] });
      expect(useTagsViewStore.getState()).toEqual(empty);
    } finally {
      viewClosers.forEach((close) => close());
      useSessionStore.setState({ status: 'empty', user: undefined });
      vi.unstubAllGlobals();
    }
  });
});
