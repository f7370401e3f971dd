import { create } from 'zustand';
import type { AppRoute } from '../core/app-route';
import { routeTables } from '../core/route-tables';
import { isPathAllowed, routeTrails } from '../core/generate-routes';
import { TAB_VIEWS_KEY, viewClosers } from '../core/end-session';
import { safeRedirect } from '../core/open-paths';
import { useSessionStore, type SessionState } from '../core/session-store';

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

/** Whose tabs they are: the same person in the same tenant, whatever the role. */
function viewsOwnerOf(user: { tenantCode: string; id: string }): string {
  return `${user.tenantCode}/${user.id}`;
}

/** The saved tabs if they are the owner's; anything malformed counts as none. */
export function parseSavedViews(text: string | null, owner: string): TagView[] {
  try {
    const saved = JSON.parse(text ?? 'null') as { owner?: unknown; views?: unknown } | null;
    if (saved?.owner !== owner || !Array.isArray(saved.views)) return [];
    return (saved.views as Array<Partial<TagView> | null>).flatMap((view) => {
      const { path, fullPath, title, meta } = view ?? {};
      // Only paths inside the app: a tab's fullPath is where clicking it goes.
      if (typeof path !== 'string' || safeRedirect(fullPath) !== fullPath) return [];
      if (!fullPath?.startsWith(path)) return [];
      return [
        tagViewOf({ path, meta: { ...meta, title: String(title || NO_NAME) } }, path, fullPath),
      ];
    });
  } catch {
    return [];
  }
}

// Whose tabs the store holds now; none before a session and after a logout.
let owner: string | undefined;

/**
 * Spec §4: a reset token keeps the tab views. They are kept in the browser tab's session storage
 * too, so a Re-Login, which reloads the page, gives the same user their tabs back (those their
 * routes still allow); anyone else signing in starts afresh.
 */
function adopt({ user, routes }: SessionState): void {
  const next = user && viewsOwnerOf(user);
  if (next === owner) return;
  owner = next;
  const saved = next ? parseSavedViews(sessionStorage.getItem(TAB_VIEWS_KEY), next) : [];
  useTagsViewStore.setState(
    {
      visitedViews: saved.filter((view) =>
        isPathAllowed(view.path, routeTables().asyncRoutes, routes),
      ),
      cachedViews: [],
    },
    true,
  );
}

useSessionStore.subscribe((state, previous) => {
  if (state.status === 'ready' && previous.status !== 'ready') adopt(state);
});
// The session may have become ready before the console's code arrived.
if (useSessionStore.getState().status === 'ready') adopt(useSessionStore.getState());

useTagsViewStore.subscribe(({ visitedViews }) => {
  if (owner) sessionStorage.setItem(TAB_VIEWS_KEY, JSON.stringify({ owner, views: visitedViews }));
});

// Spec §4: logout (and a third-party sign-in start) closes all tab views.
viewClosers.add(() => {
  owner = undefined;
  tagsView.reset();
});
