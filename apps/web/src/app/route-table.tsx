import type { ParseKeys } from 'i18next';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import type { AppRoute, ScreenComponent } from './app-route';
import { asyncRoutes } from './async-routes';
import { constantRoutes } from './constant-routes';
import { ConsoleRoutePage } from './console-route-page';
import { routeTrails, type RouteLink } from './generate-routes';
import { GuestOnly } from './GuestOnly';
import { lazyPage } from './lazy-page';
import { HOME_PATH } from './open-paths';
import { RequireSession } from './RequireSession';
import { UnknownPath } from './UnknownPath';

/** What a route declares about itself; the title is an i18n key. */
export interface RouteHandle {
  title?: ParseKeys;
  /** The screen, fetched ahead while the session loads. */
  page?: ScreenComponent;
  /** Console screens: the navigation items from the top group down to this one. */
  trail?: RouteLink[];
}

// Each screen is its own chunk: the sign-in page never downloads the console's code.
const LoginPage = lazyPage(() => import('../features/auth/LoginPage'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/ForgotPasswordPage'),
  'ForgotPasswordPage',
);
const AuthRedirectPage = lazyPage(
  () => import('../features/auth/AuthRedirectPage'),
  'AuthRedirectPage',
);
const NotFoundPage = lazyPage(() => import('../features/errors/NotFoundPage'), 'NotFoundPage');
const UnauthorizedPage = lazyPage(
  () => import('../features/errors/UnauthorizedPage'),
  'UnauthorizedPage',
);

function titled(title: ParseKeys): RouteHandle {
  return { title };
}

/**
 * The router's view of the navigation items: one flat route per screen (with its trail for the
 * breadcrumb, tags and page title) or redirect. Which of them a user may open is the guard's
 * business (route generation), not the router's.
 */
export function toRouteObjects(routes: readonly AppRoute[]): RouteObject[] {
  return routeTrails(routes).map(({ path, trail }): RouteObject => {
    const route = trail.at(-1)!.route;
    const Page = route.page;
    if (!Page) return { path, element: <Navigate to={route.redirect!} replace /> };
    const handle: RouteHandle = {
      title: route.meta?.title as ParseKeys | undefined,
      page: Page,
      trail,
    };
    return { path, handle, element: <Page /> };
  });
}

/**
 * Starts downloading the console and the screens a path shows, so they arrive alongside the
 * session instead of one after another once it is loaded.
 */
export function preloadScreens(pathname: string): void {
  void ConsoleRoutePage.preload().catch(() => undefined);
  for (const match of matchRoutes(routeTable, pathname === '/' ? HOME_PATH : pathname) ?? []) {
    void (match.route.handle as RouteHandle | undefined)?.page?.preload?.().catch(() => undefined);
  }
}

/**
 * The one route table. Open routes first (spec §2), then every console screen behind the session
 * guard: the constant routes and all async ones (the guard keeps users out of those route
 * generation did not grant them).
 */
export const routeTable: RouteObject[] = [
  {
    path: '/login',
    handle: titled('route.login'),
    element: (
      <GuestOnly>
        <LoginPage />
      </GuestOnly>
    ),
  },
  { path: '/register', handle: titled('route.register'), element: <RegisterPage /> },
  {
    path: '/forgotpassword',
    handle: titled('route.forgotPassword'),
    element: <ForgotPasswordPage />,
  },
  { path: '/auth-redirect', handle: titled('route.authRedirect'), element: <AuthRedirectPage /> },
  { path: '/404', handle: titled('route.notFound'), element: <NotFoundPage /> },
  { path: '/401', handle: titled('route.unauthorized'), element: <UnauthorizedPage /> },
  {
    element: <RequireSession onPreload={preloadScreens} />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      ...toRouteObjects([...constantRoutes, ...asyncRoutes]),
    ],
  },
  { path: '*', element: <UnknownPath /> },
];
