import type { ParseKeys } from 'i18next';
import { Navigate, type RouteObject } from 'react-router';
import { GuestOnly } from './GuestOnly';
import { lazyPage } from './lazy-page';
import { HOME_PATH } from './open-paths';
import { RequireSession } from './RequireSession';
import { UnknownPath } from './UnknownPath';

/** What a route declares about itself; the title is an i18n key. */
export interface RouteHandle {
  title: ParseKeys;
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

function titled(title: ParseKeys): RouteHandle {
  return { title };
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
    element: <RequireSession />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { path: HOME_PATH, handle: titled('route.workbench'), element: <WorkbenchPage /> },
    ],
  },
  { path: '*', element: <UnknownPath /> },
];
