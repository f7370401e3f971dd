import type { ParseKeys } from 'i18next';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { GuestOnly } from './GuestOnly';
import { ConsoleRoutePage } from './console-route-page';
import { lazyPage, type LazyPage } from './lazy-page';
import { HOME_PATH } from './open-paths';
import { RequireSession } from './RequireSession';
import { UnknownPath } from './UnknownPath';

/** What a route declares about itself; the title is an i18n key. */
export interface RouteHandle {
  title: ParseKeys;
  /** The screen's chunk, fetched ahead while the session loads. */
  page?: LazyPage;
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
const WorkbenchPage = lazyPage(() => import('../features/home/WorkbenchPage'), 'WorkbenchPage');

function titled(title: ParseKeys, page?: LazyPage): RouteHandle {
  return { title, page };
}

/**
 * Starts downloading the console and the screens a path shows, so they arrive alongside the
 * session instead of one after another once it is loaded.
 */
export function preloadScreens(pathname: string): void {
  void ConsoleRoutePage.preload().catch(() => undefined);
  for (const match of matchRoutes(routeTable, pathname === '/' ? HOME_PATH : pathname) ?? []) {
    void (match.route.handle as RouteHandle | undefined)?.page?.preload().catch(() => undefined);
  }
}

/**
 * The route tree. Open routes first (spec §2), then everything behind the session guard. Area
 * issues add their screens under the guard and their navigation items to async-routes.ts; the
 * guard keeps users out of the ones route generation did not grant them.
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
      {
        path: HOME_PATH,
        handle: titled('route.workbench', WorkbenchPage),
        element: <WorkbenchPage />,
      },
    ],
  },
  { path: '*', element: <UnknownPath /> },
];
