import type { AppRoute } from './app-route';

/**
 * The role- and menu-gated routes of spec §2 route groups. Each area's issue registers its routes
 * here (with meta.roles where the area needs them) and its screens in router.tsx; route
 * generation decides per user which of them exist.
 */
export const asyncRoutes: AppRoute[] = [];
