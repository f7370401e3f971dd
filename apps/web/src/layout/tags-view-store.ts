import { create } from 'zustand';
import type { AppRoute } from '../app/app-route';
import { routeTrails } from '../app/generate-routes';
import { useSessionStore } from '../app/session-store';

/** Spec §3 view tab: one per screen (pathname), remembering where in it the user was. */
export interface TagView {
  /** The pathname: a screen has one tab, whatever its query. */
  path: string;
  /** Path, query and hash: where the tab takes the user back to. */
  fullPath: string;
  /** The cache key of the screen (spec: cached views are names); the path here. */
  name: string;
  /** An i18n key, or 'no-name' for a screen without a title. */
  title: string;
  meta: { affix?: boolean; noCache?: boolean };
}

export interface TagsViewState {
  visitedViews: TagView[];
  /** Names of the views kept alive when the user leaves them. */
  cachedViews: string[];
}

export const NO_NAME = 'no-name';

/** Spec §4 add, visited half: recorded if its path is absent. */
export function addVisitedView(state: TagsViewState, view: TagView): TagsViewState {
  if (state.visitedViews.some((v) => v.path === view.path)) return state;
  return {
    ...state,
    visitedViews: [...state.visitedViews, { ...view, title: view.title || NO_NAME }],
  };
}

/** Spec §4 add, cached half: recorded unless noCache or already there. */
export function addCachedView(state: TagsViewState, view: TagView): TagsViewState {
  if (view.meta.noCache || state.cachedViews.includes(view.name)) return state;
  return { ...state, cachedViews: [...state.cachedViews, view.name] };
}

/** Spec §4 add: both halves. */
export function addView(state: TagsViewState, view: TagView): TagsViewState {
  return addCachedView(addVisitedView(state, view), view);
}

/** Spec §4 delete: removed from both lists. */
export function delView(state: TagsViewState, view: Pick<TagView, 'path' | 'name'>): TagsViewState {
  return {
    visitedViews: state.visitedViews.filter((v) => v.path !== view.path),
    cachedViews: state.cachedViews.filter((name) => name !== view.name),
  };
}

/** Drops a view's kept-alive screen only (refresh): the tab stays. */
export function delCachedView(state: TagsViewState, view: Pick<TagView, 'name'>): TagsViewState {
  return { ...state, cachedViews: state.cachedViews.filter((name) => name !== view.name) };
}

/** Spec §4 delete others: affixed tabs plus this one stay visited; only this one stays cached. */
export function delOthersViews(
  state: TagsViewState,
  view: Pick<TagView, 'path' | 'name'>,
): TagsViewState {
  return {
    visitedViews: state.visitedViews.filter((v) => v.meta.affix || v.path === view.path),
    cachedViews: state.cachedViews.filter((name) => name === view.name),
  };
}

/** Spec §4 delete all: the affixed tabs stay, the cache empties. */
export function delAllViews(state: TagsViewState): TagsViewState {
  return { visitedViews: state.visitedViews.filter((v) => v.meta.affix), cachedViews: [] };
}

/** Spec §4 update: merges into the visited entry with the same path. */
export function updateVisitedView(
  state: TagsViewState,
  view: Partial<TagView> & Pick<TagView, 'path'>,
): TagsViewState {
  if (!state.visitedViews.some((v) => v.path === view.path)) return state;
  return {
    ...state,
    visitedViews: state.visitedViews.map((v) => (v.path === view.path ? { ...v, ...view } : v)),
  };
}

/**
 * Where closing the active tab leads (spec §2): the last visited tab; with none left, the home
 * screen refreshed if that is what was closed, else '/'.
 */
export function afterClosing(
  visited: readonly TagView[],
  closed: Pick<TagView, 'path' | 'fullPath'>,
  homePath: string,
): { to: string; refresh: boolean } {
  const last = visited.at(-1);
  if (last) return { to: last.fullPath, refresh: false };
  if (closed.path === homePath) return { to: closed.fullPath, refresh: true };
  return { to: '/', refresh: false };
}

/** The tab of a screen: its path, where it was (fullPath), its title key and its meta. */
export function tagViewOf(route: AppRoute, path: string, fullPath = path): TagView {
  return {
    path,
    fullPath,
    name: path,
    title: route.meta?.title ?? NO_NAME,
    meta: { affix: route.meta?.affix, noCache: route.meta?.noCache },
  };
}

/** Spec §4: the affixed tabs, from routes with meta.affix (screens without :params only). */
export function affixTags(routes: readonly AppRoute[]): TagView[] {
  return routeTrails(routes)
    .filter(({ path, trail }) => {
      const route = trail.at(-1)!.route;
      return route.meta?.affix && route.page && !/[:*]/.test(path);
    })
    .map(({ path, trail }) => tagViewOf(trail.at(-1)!.route, path));
}

const EMPTY: TagsViewState = { visitedViews: [], cachedViews: [] };

/** The tags view's state; views change through the functions below. */
export const useTagsViewStore = create<TagsViewState>(() => EMPTY);

const apply = (change: (state: TagsViewState) => TagsViewState) =>
  useTagsViewStore.setState((state) => change(state), true);

export const tagsView = {
  add: (view: TagView) => apply((state) => addView(state, view)),
  /** The affixed tabs: shown from the start, cached once they are opened. */
  addAffixed: (views: readonly TagView[]) => apply((state) => views.reduce(addVisitedView, state)),
  del: (view: Pick<TagView, 'path' | 'name'>) => apply((state) => delView(state, view)),
  delCached: (view: Pick<TagView, 'name'>) => apply((state) => delCachedView(state, view)),
  delOthers: (view: Pick<TagView, 'path' | 'name'>) =>
    apply((state) => delOthersViews(state, view)),
  delAll: () => apply(delAllViews),
  update: (view: Partial<TagView> & Pick<TagView, 'path'>) =>
    apply((state) => updateVisitedView(state, view)),
  /** Every tab goes, affixed ones too: a new session starts from its own. */
  reset: () => useTagsViewStore.setState(EMPTY, true),
};

// Spec §4: logout (and a reset session) closes all tab views; the next user starts afresh.
useSessionStore.subscribe((state, previous) => {
  if (state.status === 'empty' && previous.status !== 'empty') tagsView.reset();
});
