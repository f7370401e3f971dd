import type { ParseKeys } from 'i18next';
import { useMemo } from 'react';
import type { RouteObject } from 'react-router';
import type { ScreenComponent } from '../core/app-route';
import { useClosedRoutes } from './closed-routes-loader';
import type { RouteLink } from '../core/generate-routes';
import { GuestOnly } from './GuestOnly';
import { lazyPage } from '../core/lazy-page';
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
const ThirdLoginPage = lazyPage(
  () => import('../features/auth/third-login/ThirdLoginPage'),
  'ThirdLoginPage',
  ['account'],
);
const NotFoundPage = lazyPage(() => import('../features/errors/NotFoundPage'), 'NotFoundPage');
const UnauthorizedPage = lazyPage(
  () => import('../features/errors/UnauthorizedPage'),
  'UnauthorizedPage',
);

function titled(title: ParseKeys): RouteHandle {
  return { title };
}

/** Spec §2: the routes anyone may open. */
const openRoutes: RouteObject[] = [
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
  { path: '/thirdLogin', handle: titled('route.authRedirect'), element: <ThirdLoginPage /> },
  { path: '/404', handle: titled('route.notFound'), element: <NotFoundPage /> },
  { path: '/401', handle: titled('route.unauthorized'), element: <UnauthorizedPage /> },
];

/** Paths no route knows: sign in first, or /404; waits for the signed-in routes with a token. */
const unknownRoute: RouteObject = { path: '*', element: <UnknownPath /> };

/**
 * The one route table: open routes first (spec §2), then, once downloaded, every console screen
 * behind the session guard (closed-routes.tsx), then unknown paths. The signed-in routes download
 * only with a token (UnknownPath asks for them), so the sign-in page never carries them.
 */
export function useRouteTable(): RouteObject[] {
  const closedRoutes = useClosedRoutes();
  return useMemo(() => [...openRoutes, ...(closedRoutes ?? []), unknownRoute], [closedRoutes]);
}
