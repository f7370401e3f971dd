// The load benchmark's mix of screens, as data: each screen is what the console calls when a user
// opens it (apps/web: core/session.ts, layout/MenuSwitch.tsx, resource/ResourcePage.tsx,
// features/iot/device/device-api.ts, iot/charts/HistoryPanel.tsx, notification/notification-api.ts),
// with a weight: how often a user opens it among the screens their role has.
import { SET_PROPERTY_COMMAND, TELEMETRY_CALLS } from '@shuili/contract';
import { BENCH_KEYS } from '@shuili/test-support/ingest-data';
import { VALVE_KEY, type LoadTenant } from './load-data';

export type LoadRole = 'admin' | 'operator';

/** One HTTP call of a screen. */
export interface ScreenCall {
  /** The route, for the per-call table (its URL without the query). */
  path: string;
  method: 'GET' | 'POST' | 'PUT';
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Refusals the console expects and shows (status: why); not errors. */
  expected?: Record<number, string>;
}

/** What a screen's calls are made of: the user's tenant, one of its devices, a random pick. */
export interface ScreenContext {
  tenant: LoadTenant;
  username: string;
  device: { id: string; deviceNo: string };
  pick<T>(list: readonly T[]): T;
  /** The instant the screen opens (ms). */
  now: number;
}

export interface Screen {
  name: string;
  weight: number;
  roles: readonly LoadRole[];
  /** The device page: its live topics are subscribed while it shows (use-device-live.ts). */
  devicePage?: boolean;
  /** The screen sends a command and waits for the device's answer on the commands topic. */
  awaitsCommand?: boolean;
  /**
   * The calls in stages: a stage's calls go out together (react-query fetches a screen's queries
   * side by side), the next stage when they have answered (a write after the read it follows).
   */
  stages: ((ctx: ScreenContext) => ScreenCall[])[];
}

const BOTH: readonly LoadRole[] = ['admin', 'operator'];
const ADMIN: readonly LoadRole[] = ['admin'];
const DAY_MS = 24 * 3_600_000;
/** The console's default page size (ResourcePage PAGE_SIZES[0]). */
const PAGE = { currentPage: 1, pageSize: 10 };

const get = (path: string, query?: ScreenCall['query']): ScreenCall => ({
  path,
  method: 'GET',
  ...(query ? { query } : {}),
});

/** The last 24 h, as the history panel's default range asks it. */
const lastDay = (ctx: ScreenContext) => ({
  keys: `${BENCH_KEYS[0]},${BENCH_KEYS[1]}`,
  start: new Date(ctx.now - DAY_MS).toISOString(),
  end: new Date(ctx.now).toISOString(),
});

/** The device list's filters a user tries (none, a name, online only, healthy only, a product). */
const deviceFilters = [
  () => ({}),
  (ctx: ScreenContext) => ({ deviceName: `Valve ${ctx.pick([1, 2, 3, 4, 5, 6, 7, 8, 9])}` }),
  () => ({ online: true }),
  () => ({ status: 0 }),
  (ctx: ScreenContext) => ({ productId: ctx.tenant.productId }),
];

/** The device page's first call, then what it loads beside the live values (DevicePage.tsx). */
const devicePage = [
  (ctx: ScreenContext) => [get('/api/iot/device/queryDeviceDetail', { id: ctx.device.id })],
  (ctx: ScreenContext) => [
    get(TELEMETRY_CALLS.latest, { deviceId: ctx.device.id }),
    get(TELEMETRY_CALLS.ingestStat, { deviceId: ctx.device.id }),
    get('/api/iot/command/queryDeviceControl', { deviceId: ctx.device.id }),
    get('/api/iot/alarm/queryAlarmRecord', {
      deviceId: ctx.device.id,
      currentPage: 1,
      pageSize: 50,
    }),
  ],
];

export const SCREENS: readonly Screen[] = [
  {
    // The console opened again (a reload or a new tab): session.ts's user, authority and
    // organisations, MenuSwitch's options, the bell.
    name: 'workbench',
    weight: 10,
    roles: BOTH,
    stages: [
      () => [get('/api/uaa/users/getSysUser')],
      (ctx) => [
        {
          path: '/api/account/sysuserdetail/queryCurrentAuthority',
          method: 'POST',
          query: { username: ctx.username },
        },
        get('/api/account/sysuserdetail/queryCurrentOrgs', { currentPage: 1, pageSize: 100 }),
        get('/api/account/sysuserdetail/queryParentMenu'),
        get('/api/admin/sysuserpost/queryUserPostOptions'),
        get('/api/notification/notification/queryHeadNotification'),
      ],
    ],
  },
  {
    name: 'device list',
    weight: 22,
    roles: BOTH,
    stages: [
      (ctx) => [
        get('/api/iot/device/queryIotDevice', { ...PAGE, ...ctx.pick(deviceFilters)(ctx) }),
        // The product filter's options (RefSelect).
        get('/api/iot/product/queryIotProduct', { currentPage: 1, pageSize: 20 }),
      ],
    ],
  },
  {
    // A device's page with its 24 h chart (raw readings, HistoryPanel's default).
    name: 'device page',
    weight: 22,
    roles: BOTH,
    devicePage: true,
    stages: [
      ...devicePage,
      (ctx) => [
        get(TELEMETRY_CALLS.history, {
          deviceId: ctx.device.id,
          ...lastDay(ctx),
          currentPage: 1,
          pageSize: 1000,
        }),
      ],
    ],
  },
  {
    // The chart switched to hourly averages.
    name: 'device hourly chart',
    weight: 6,
    roles: BOTH,
    devicePage: true,
    stages: [
      (ctx) => [
        get(TELEMETRY_CALLS.aggregate, {
          deviceIds: ctx.device.id,
          ...lastDay(ctx),
          bucket: 'hour',
          fn: 'avg',
        }),
      ],
    ],
  },
  {
    name: 'alarm records',
    weight: 10,
    roles: BOTH,
    stages: [() => [get('/api/iot/alarm/queryAlarmRecord', { ...PAGE, state: 'open' })]],
  },
  {
    name: 'command records',
    weight: 5,
    roles: BOTH,
    stages: [() => [get('/api/iot/command/queryCommand', PAGE)]],
  },
  {
    name: 'my notifications',
    weight: 5,
    roles: BOTH,
    stages: [() => [get('/api/notification/notification/queryMyNotification', PAGE)]],
  },
  {
    name: 'user list',
    weight: 6,
    roles: ADMIN,
    stages: [
      () => [
        get('/api/admin/sysuser/querySysUser', PAGE),
        get('/api/admin/sysrole/queryRoleNameCheckbox'),
      ],
    ],
  },
  {
    name: 'role list',
    weight: 3,
    roles: ADMIN,
    stages: [() => [get('/api/admin/sysrole/querySysRole', PAGE)]],
  },
  // Writes.
  {
    name: 'acknowledge alarm',
    weight: 3,
    roles: BOTH,
    stages: [
      () => [get('/api/iot/alarm/queryAlarmRecord', { ...PAGE, state: 'open' })],
      (ctx) => [
        {
          path: '/api/iot/alarm/acknowledgeAlarm',
          method: 'POST',
          body: { id: ctx.pick(ctx.tenant.alarmIds), comment: 'Checked on site' },
        },
      ],
    ],
  },
  {
    name: 'read notification',
    weight: 3,
    roles: BOTH,
    stages: [
      () => [get('/api/notification/notification/queryMyNotification', { ...PAGE, read: false })],
      (ctx) => [
        {
          path: '/api/notification/notification/readNotification',
          method: 'POST',
          body: { ids: [ctx.pick(ctx.tenant.notificationIds)] },
        },
      ],
    ],
  },
  {
    name: 'update device remark',
    weight: 2,
    roles: ADMIN,
    stages: [
      (ctx) => [get('/api/iot/device/queryDeviceDetail', { id: ctx.device.id })],
      (ctx) => [
        {
          path: '/api/iot/device/updateIotDevice',
          method: 'PUT',
          body: { id: ctx.device.id, remark: `Inspected ${new Date(ctx.now).toISOString()}` },
        },
      ],
    ],
  },
  {
    // On the device page: set the valve; the device answers and the page hears the outcome.
    name: 'send command',
    weight: 3,
    roles: BOTH,
    devicePage: true,
    awaitsCommand: true,
    stages: [
      (ctx) => [get('/api/iot/command/queryDeviceControl', { deviceId: ctx.device.id })],
      (ctx) => [
        {
          path: '/api/iot/command/sendCommand',
          method: 'POST',
          body: {
            deviceId: ctx.device.id,
            name: SET_PROPERTY_COMMAND,
            params: { [VALVE_KEY]: ctx.pick([0, 25, 50, 75, 100]) },
          },
          expected: {
            409: 'a command to this device is still under way (the page says to wait)',
          },
        },
      ],
    ],
  },
];

/** The bell's poll (NotificationBell, HEAD_REFETCH_MS), on every screen, once a minute. */
export const BELL: Screen = {
  name: 'bell (every 60 s)',
  weight: 0,
  roles: BOTH,
  stages: [() => [get('/api/notification/notification/queryHeadNotification')]],
};
export const BELL_SECONDS = 60;

/** The screens a role opens, for weighted picks. */
export function screensOf(role: LoadRole): Screen[] {
  return SCREENS.filter((screen) => screen.roles.includes(role));
}

/** A call's URL with its query (undefined values left out, as axios does). */
export function urlOf(call: ScreenCall): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return text ? `${call.path}?${text}` : call.path;
}
