/** Route metadata of spec §3 "Navigation item"; titles are i18n keys. */
export interface RouteMeta {
  title?: string;
  icon?: string;
  /** Roles that may open the route; none means everyone signed in may. */
  roles?: string[];
  /** Pinned in the tags view. */
  affix?: boolean;
  noCache?: boolean;
  activeMenu?: string;
  breadcrumb?: boolean;
}

/** A navigation item: what the sidebar, breadcrumb and tags view are built from. */
export interface AppRoute {
  path: string;
  name?: string;
  meta?: RouteMeta;
  /** Reachable but never listed in the menu (detail and editor pages). */
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  children?: AppRoute[];
}
