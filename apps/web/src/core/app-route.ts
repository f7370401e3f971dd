import type { ComponentType } from 'react';

/** A screen: usually a lazily loaded chunk (lazy-page.ts) that can be fetched ahead. */
export type ScreenComponent = ComponentType & { preload?: () => Promise<unknown> };

/** Route metadata of spec §3 "Navigation item"; titles are i18n keys. */
export interface RouteMeta {
  /** An i18n key (route.*); the menu, breadcrumb, tags, search and page title translate it. */
  title?: string;
  /** A name from layout/RouteIcon's set. */
  icon?: string;
  /** Roles that may open the route; none means everyone signed in may. */
  roles?: string[];
  /** Pinned in the tags view: no close button, survives "close others" and "close all". */
  affix?: boolean;
  /** Not kept alive: the screen starts afresh every time it is opened. */
  noCache?: boolean;
  /** The menu item to highlight while this (usually hidden) route is open. */
  activeMenu?: string;
  /** false: left out of the breadcrumb. */
  breadcrumb?: boolean;
}

/** A navigation item: what the sidebar, breadcrumb and tags view are built from. */
export interface AppRoute {
  path: string;
  name?: string;
  meta?: RouteMeta;
  /** Reachable but never listed in the menu (detail and editor pages). */
  hidden?: boolean;
  /** A group shown as a submenu even when it has a single child. */
  alwaysShow?: boolean;
  redirect?: string;
  children?: AppRoute[];
  /** The screen, as its own chunk; a route without one only groups or redirects. */
  page?: ScreenComponent;
}
