import type { AppRoute } from '../core/app-route';
import { lazyPage } from '../core/lazy-page';
import { HOME_PATH, REDIRECT_PREFIX } from '../core/open-paths';
import { RedirectPage } from './RedirectPage';

// Each screen is its own chunk: the sign-in page never downloads the console's code.
const WorkbenchPage = lazyPage(() => import('../features/home/WorkbenchPage'), 'WorkbenchPage');
const ProfilePage = lazyPage(() => import('../features/profile/ProfilePage'), 'ProfilePage', [
  'account',
]);
const MyNotificationPage = lazyPage(
  () => import('../features/notification/MyNotificationPage'),
  'MyNotificationPage',
);

// Kept in open-paths.ts, which the entry can import without the console's screens.
export { REDIRECT_PREFIX } from '../core/open-paths';

/**
 * The console's constant routes (spec §4): every signed-in user has them, whatever the roles and
 * the server's menu. Role- and menu-gated screens go to async-routes.ts instead.
 */
export const constantRoutes: AppRoute[] = [
  {
    path: REDIRECT_PREFIX,
    hidden: true,
    children: [{ path: '*', page: RedirectPage, meta: { noCache: true, breadcrumb: false } }],
  },
  {
    path: '/home',
    redirect: HOME_PATH,
    meta: { title: 'route.home', icon: 'home' },
    children: [
      {
        path: 'workbench',
        name: 'Workbench',
        page: WorkbenchPage,
        meta: { title: 'route.workbench', icon: 'dashboard', affix: true },
      },
    ],
  },
  {
    path: '/profile',
    redirect: '/profile/index',
    hidden: true,
    children: [
      {
        path: 'index',
        name: 'Profile',
        page: ProfilePage,
        meta: { title: 'route.profile', icon: 'user' },
      },
    ],
  },
  {
    path: '/mynotification',
    name: 'MyNotification',
    hidden: true,
    page: MyNotificationPage,
    meta: { title: 'route.myNotification', icon: 'bell' },
  },
];
