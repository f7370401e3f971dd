import {
  AREA_SCREEN_ICONS,
  AREA_SCREENS,
  AREAS,
  areaSegmentCode,
  areaSegmentPath,
  CROSS_AREA_MENU_SEQUENCE,
  CROSS_AREA_SCREENS,
  ENTITIES,
  entityButtons,
  ROLE_ADMIN,
  ROLE_CASHIER,
  ROLE_OPERATOR,
  type AreaDef,
  type AreaScreen,
  type EntityDef,
} from '@shuili/contract';
import { BILLING_CASHIER_BUTTONS, BILLING_CASHIER_CALLS } from '../billing/billing-grants';
import { MONITOR_OPERATOR_CALLS } from '../monitor/monitor-grants';
import { TRACE_OPERATOR_BUTTONS, TRACE_OPERATOR_CALLS } from '../trace/trace-grants';

/**
 * The menus of the screens that exist, given to every new tenant. `menuName` is a translation
 * key of the web (route.*); `roles` lists the default roles granted the menu besides ROLE_ADMIN.
 */
export interface MenuSeed {
  menuCode: string;
  menuName: string;
  menuIcon: string;
  menuPath: string;
  menuComponent: string;
  menuSequence: number;
  parent?: string;
  roles: string[];
  /** Only the platform tenant gets it (tenants, app clients). */
  platformOnly?: boolean;
  buttons?: Array<{ buttonCode: string; buttonName: string }>;
}

const BUTTON_NAMES: Record<keyof ReturnType<typeof entityButtons>, string> = {
  add: 'Add',
  edit: 'Edit',
  delete: 'Delete',
  export: 'Export',
  status: 'Enable / disable',
};

/** The buttons an entity's screen shows, for the operations it has. */
function buttonsOf(entity: EntityDef) {
  const codes = entityButtons(entity);
  const has = { ...entity.operations, edit: entity.operations.update };
  return (Object.keys(codes) as Array<keyof typeof codes>)
    .filter((action) => has[action as keyof typeof has])
    .map((action) => ({ buttonCode: codes[action], buttonName: BUTTON_NAMES[action] }));
}

/** One menu per entity screen (entities sharing a screen share its menu). */
function entityMenus(
  group: string,
  routePrefix: string | ((entity: EntityDef) => boolean),
  icons: Record<string, string>,
  roles: Record<string, string[]> = {},
): MenuSeed[] {
  const seen = new Map<string, MenuSeed>();
  let sequence = 10;
  const belongs =
    typeof routePrefix === 'string'
      ? (entity: EntityDef) => entity.route.startsWith(`${routePrefix}/`)
      : routePrefix;
  for (const entity of ENTITIES) {
    if (!belongs(entity)) continue;
    const known = seen.get(entity.menuCode);
    if (known) {
      const codes = new Set(known.buttons!.map((button) => button.buttonCode));
      known.buttons!.push(...buttonsOf(entity).filter((button) => !codes.has(button.buttonCode)));
      continue;
    }
    seen.set(entity.menuCode, {
      menuCode: entity.menuCode,
      menuName: `route.${entity.menuCode}`,
      menuIcon: icons[entity.menuCode] ?? 'table',
      menuPath: entity.route,
      menuComponent: `${group}/${entity.menuCode}`,
      menuSequence: (sequence += 10),
      parent: group,
      roles: roles[entity.menuCode] ?? [],
      platformOnly: entity.scope === 'platform',
      buttons: buttonsOf(entity),
    });
  }
  return [...seen.values()];
}

const ICONS: Record<string, string> = {
  sysuser: 'user',
  syspost: 'idcard',
  sysmenu: 'menu',
  sysorg: 'apartment',
  sysdict: 'book',
  sysregion: 'global',
  sysparam: 'control',
  notification: 'notification',
  appclient: 'api',
  regional: 'environment',
  operationlog: 'file-search',
  loginlog: 'login',
  sysrole: 'team',
  sysurl: 'link',
  datapermission: 'database',
};

/** The IoT screens: their routes are the spec's top-level paths, so they are picked by API path. */
const IOT_ICONS: Record<string, string> = {
  iotproject: 'profile',
  iotproduct: 'appstore',
  iotfactor: 'tags',
  sensortemplate: 'dashboard',
  sensorinstance: 'bars',
  controllertemplate: 'control',
  controllerinstance: 'tool',
  iotdevice: 'database',
  devicefile: 'file-text',
  deviceimage: 'file-search',
  iotCommand: 'history',
  alarmRule: 'setting',
  alarmRecord: 'bell',
};
/**
 * Operators watch and control devices: the device list, its operation records and its warning
 * information (what they may do there is DEFAULT_ROLE_GRANTS).
 */
const IOT_ROLES: Record<string, string[]> = {
  iotdevice: [ROLE_OPERATOR],
  iotCommand: [ROLE_OPERATOR],
  alarmRecord: [ROLE_OPERATOR],
};

function iotMenus(): MenuSeed[] {
  const menus = entityMenus(
    'iot',
    (entity) => entity.path.startsWith('/api/iot/'),
    IOT_ICONS,
    IOT_ROLES,
  );
  const files = menus.find((menu) => menu.menuCode === 'devicefile');
  // Spec /imageList: the images among the device files, on a screen of their own.
  if (files)
    menus.splice(menus.indexOf(files) + 1, 0, {
      ...files,
      menuCode: 'deviceimage',
      menuName: 'route.deviceimage',
      menuIcon: IOT_ICONS.deviceimage!,
      menuPath: '/imageList',
      menuComponent: 'iot/deviceimage',
      menuSequence: files.menuSequence + 5,
      buttons: files.buttons!.map((button) => ({
        ...button,
        buttonCode: button.buttonCode.replace(/^devicefile:/, 'deviceimage:'),
      })),
    });
  return menus;
}

/**
 * The job scheduler (issue 22): the spec's top-level paths under one group. Jobs and workflows
 * are administrators' (a job runs irrigation programs and calls out): no default role besides
 * ROLE_ADMIN. The editor and instance details are hidden routes of their screens.
 */
const JOB_ICONS: Record<string, string> = {
  jobinfo: 'profile',
  taskinstance: 'bars',
  workflowinfo: 'apartment',
  dagworkflowinstance: 'cluster',
  dagtaskinstance: 'table',
};

function jobMenus(): MenuSeed[] {
  const entities = entityMenus('job', (entity) => entity.path.startsWith('/api/job/'), JOB_ICONS);
  const appmonitor: MenuSeed = {
    menuCode: 'appmonitor',
    menuName: 'route.appmonitor',
    menuIcon: 'desktop',
    menuPath: '/appmonitor',
    menuComponent: 'job/appmonitor',
    menuSequence: 5,
    parent: 'job',
    roles: [],
  };
  const extra: Record<string, Array<{ buttonCode: string; buttonName: string }>> = {
    jobinfo: [{ buttonCode: 'jobinfo:run', buttonName: 'Run once' }],
    taskinstance: [
      { buttonCode: 'taskinstance:stop', buttonName: 'Stop' },
      { buttonCode: 'taskinstance:retry', buttonName: 'Retry' },
    ],
    workflowinfo: [
      { buttonCode: 'workflowinfo:run', buttonName: 'Run once' },
      { buttonCode: 'workflowinfo:design', buttonName: 'Edit the DAG' },
    ],
    dagworkflowinstance: [
      { buttonCode: 'dagworkflowinstance:stop', buttonName: 'Stop' },
      { buttonCode: 'dagworkflowinstance:retry', buttonName: 'Retry failed nodes' },
      { buttonCode: 'dagworkflowinstance:markSuccess', buttonName: 'Mark node successful' },
    ],
  };
  for (const menu of entities)
    menu.buttons = [...(menu.buttons ?? []), ...(extra[menu.menuCode] ?? [])];
  return [appmonitor, ...entities];
}

/** The menus of one area's screens and pages, in order: its standard screens, then its pages. */
function areaItemMenus(area: AreaDef): MenuSeed[] {
  const grouped = area.group !== undefined;
  const items = [
    // In the declaration's order: the spec's, which differs from area to area.
    ...(Object.entries(area.screens) as Array<[AreaScreen, string]>).map(([screen, segment]) => ({
      segment,
      icon: AREA_SCREEN_ICONS[screen],
      operator: area.operatorScreens.includes(screen),
      cashier: false,
      hidden: false,
    })),
    ...(area.pages ?? []).map((page) => ({
      segment: page.segment,
      icon: page.icon,
      operator: page.operator === true,
      cashier: page.cashier === true,
      hidden: page.hidden === true,
    })),
  ];
  return items
    .map((item, index) => ({ ...item, index }))
    .filter((item) => !item.hidden)
    .map(({ segment, icon, operator, cashier, index }) => {
      const path = areaSegmentPath(area, segment);
      const code = areaSegmentCode(area, segment);
      return {
        menuCode: code,
        menuName: `route.${code}`,
        menuIcon: icon,
        menuPath: path,
        menuComponent: grouped ? `${area.code}/${segment}` : segment,
        // Without a group the pages sit among the top-level menus, at the area's place.
        menuSequence: grouped ? (index + 1) * 10 : area.menuSequence,
        ...(grouped ? { parent: area.code } : {}),
        roles: [...(operator ? [ROLE_OPERATOR] : []), ...(cashier ? [ROLE_CASHIER] : [])],
        // The buttons of entities edited on this screen (a configuration's recipes, programs).
        buttons: ENTITIES.filter((entity) => entity.route === path).flatMap(buttonsOf),
      };
    });
}

/**
 * The monitoring areas' menus, from their declarations (contract areas/): a group per area at its
 * spec route group (none for an area whose pages the spec puts at the top level), a menu per
 * screen and page it has at its spec path (code: the path's last segment; hidden pages have
 * none), and the cross-area screens as top-level menus. Operators get the screens and pages the
 * area lists for them (AreaDef.operatorScreens, AreaPageDef.operator) and the cross-area ones.
 */
function areaMenus(): MenuSeed[] {
  const menus: MenuSeed[] = [];
  for (const area of AREAS) {
    const items = areaItemMenus(area);
    if (area.group !== undefined) {
      menus.push({
        menuCode: area.code,
        menuName: `route.${area.code}`,
        menuIcon: area.icon,
        menuPath: area.group,
        menuComponent: 'Layout',
        menuSequence: area.menuSequence,
        // Whoever holds one of its screens sees the group.
        roles: [...new Set(items.flatMap((item) => item.roles))],
      });
    }
    menus.push(...items);
  }
  for (const screen of AREA_SCREENS) {
    const path = CROSS_AREA_SCREENS[screen];
    if (!path) continue;
    const code = path.slice(1);
    menus.push({
      menuCode: code,
      menuName: `route.${code}`,
      menuIcon: AREA_SCREEN_ICONS[screen],
      menuPath: path,
      menuComponent: code,
      menuSequence: CROSS_AREA_MENU_SEQUENCE[screen] ?? 49,
      roles: [ROLE_OPERATOR],
    });
  }
  return menus;
}

export const DEFAULT_MENUS: MenuSeed[] = [
  {
    menuCode: 'home',
    menuName: 'route.home',
    menuIcon: 'home',
    menuPath: '/home',
    menuComponent: 'Layout',
    menuSequence: 1,
    roles: [ROLE_OPERATOR, ROLE_CASHIER],
  },
  {
    menuCode: 'workbench',
    menuName: 'route.workbench',
    menuIcon: 'dashboard',
    menuPath: '/home/workbench',
    menuComponent: 'home/Workbench',
    menuSequence: 1,
    parent: 'home',
    roles: [ROLE_OPERATOR, ROLE_CASHIER],
  },
  {
    menuCode: 'admin',
    menuName: 'route.admin',
    menuIcon: 'setting',
    menuPath: '/admin',
    menuComponent: 'Layout',
    menuSequence: 90,
    roles: [],
  },
  {
    menuCode: 'iot',
    menuName: 'route.iot',
    menuIcon: 'cluster',
    menuPath: '/iot',
    menuComponent: 'Layout',
    menuSequence: 20,
    roles: [ROLE_OPERATOR],
  },
  ...iotMenus(),
  {
    menuCode: 'job',
    menuName: 'route.job',
    menuIcon: 'thunderbolt',
    menuPath: '/job',
    menuComponent: 'Layout',
    menuSequence: 80,
    roles: [],
  },
  ...jobMenus(),
  ...areaMenus(),
  ...entityMenus('admin', '/admin', ICONS),
  {
    menuCode: 'regionalManagement',
    menuName: 'route.regionalManagement',
    menuIcon: 'cluster',
    menuPath: '/admin/regionalManagement',
    menuComponent: 'admin/regionalManagement',
    menuSequence: 15,
    parent: 'admin',
    roles: [],
  },
  {
    menuCode: 'onlinesysuser',
    menuName: 'route.onlinesysuser',
    menuIcon: 'wifi',
    menuPath: '/admin/onlinesysuser',
    menuComponent: 'admin/onlinesysuser',
    menuSequence: 25,
    parent: 'admin',
    roles: [],
    buttons: [{ buttonCode: 'onlinesysuser:remove', buttonName: 'Sign out' }],
  },
  {
    menuCode: 'authority',
    menuName: 'route.authority',
    menuIcon: 'safety',
    menuPath: '/authority',
    menuComponent: 'Layout',
    menuSequence: 91,
    roles: [],
  },
  ...entityMenus('authority', '/authority', ICONS),
  {
    menuCode: 'systenant',
    menuName: 'route.systenant',
    menuIcon: 'bank',
    menuPath: '/systenant',
    menuComponent: 'systenant',
    menuSequence: 92,
    roles: [],
    platformOnly: true,
    buttons: buttonsOf(ENTITIES.find((entity) => entity.menuCode === 'systenant')!),
  },
];

/** Extra buttons of screens with their own actions (role authorisation, user grants). */
export const EXTRA_BUTTONS: Record<string, Array<{ buttonCode: string; buttonName: string }>> = {
  sysrole: [
    { buttonCode: 'sysrole:authorize', buttonName: 'Authorise' },
    { buttonCode: 'sysrole:users', buttonName: 'Assign users' },
  ],
  sysuser: [
    { buttonCode: 'sysuser:grant', buttonName: 'Grant roles' },
    { buttonCode: 'sysuser:bindProject', buttonName: 'Bind projects' },
    { buttonCode: 'sysuser:resetPassword', buttonName: 'Reset password' },
  ],
  regionalManagement: [{ buttonCode: 'regionalManagement:assign', buttonName: 'Assign zones' }],
};

/** The roles every tenant starts with. */
export const DEFAULT_ROLES = [
  {
    roleCode: ROLE_ADMIN,
    roleName: 'Administrator',
    roleDescription: 'Everything inside the tenant',
  },
  {
    roleCode: ROLE_OPERATOR,
    roleName: 'Operator',
    roleDescription: 'Day-to-day monitoring and control',
  },
  {
    roleCode: ROLE_CASHIER,
    roleName: 'Cashier',
    roleDescription: 'Card-swipe billing service desk: households, cards, recharges and refunds',
  },
];

/** What a default role holds besides its menus (the `roles` of DEFAULT_MENUS). */
export interface DefaultRoleGrants {
  /** URL permissions, by route path as the server registers it. */
  urls: readonly string[];
  /** Buttons, by code, of menus the role holds. */
  buttons: readonly string[];
}

/**
 * The grants the default roles other than ROLE_ADMIN (which holds everything) start with in a
 * new tenant. Given once: a button with its menu when the tenant is given that menu
 * (default-menu-sync.ts: at provisioning, or at the first start after an upgrade added it), a
 * URL when it first enters the tenant's URL list (UrlGrantService.syncCatalogue: right after
 * provisioning, or at the first start that serves a new route). From then on they are the
 * tenant's to change: nothing grants them again, so what an administrator revokes stays
 * revoked. default-role-grants.test.ts checks every path against the server's routes and every
 * button against the role's menus.
 */
export const DEFAULT_ROLE_GRANTS: Readonly<Record<string, DefaultRoleGrants>> = {
  // Day-to-day monitoring and control: read devices, their telemetry and alarms, send commands,
  // acknowledge alarms; never add, change or delete devices, products or rules.
  [ROLE_OPERATOR]: {
    urls: [
      // The device list (and its exports) and a device's page.
      '/api/iot/device/queryIotDevice',
      '/api/iot/device/exportIotDevice',
      '/api/iot/device/exportCsvIotDevice',
      '/api/iot/device/exportPDFIotDevice',
      '/api/iot/device/exportWordIotDevice',
      '/api/iot/device/queryDeviceDetail',
      // The cameras (video screens).
      '/api/video/camera/queryAllCamera',
      // Look-ups of the device screens' project, product and zone fields.
      '/api/iot/project/queryIotProject',
      '/api/iot/product/queryIotProduct',
      '/api/admin/syszone/queryZoneTree',
      // Telemetry: latest values, history, aggregates, exports, what ingestion refused.
      '/api/iot/telemetry/queryLatest',
      '/api/iot/telemetry/queryHistory',
      '/api/iot/telemetry/queryAggregate',
      '/api/iot/telemetry/exportTelemetry',
      '/api/iot/telemetry/queryIngestStat',
      // Control: send and cancel commands, read them (operation records and their exports).
      '/api/iot/command/queryDeviceControl',
      '/api/iot/command/sendCommand',
      '/api/iot/command/cancelCommand',
      '/api/iot/command/queryCommandDetail',
      '/api/iot/command/queryCommand',
      '/api/iot/command/exportCommand',
      '/api/iot/command/exportCsvCommand',
      '/api/iot/command/exportPDFCommand',
      '/api/iot/command/exportWordCommand',
      // Alarms: warning information (and its exports), acknowledging, the rules read only.
      '/api/iot/alarm/queryAlarmRecord',
      '/api/iot/alarm/exportAlarmRecord',
      '/api/iot/alarm/exportCsvAlarmRecord',
      '/api/iot/alarm/exportPDFAlarmRecord',
      '/api/iot/alarm/exportWordAlarmRecord',
      '/api/iot/alarm/acknowledgeAlarm',
      '/api/iot/alarm/queryAlarmRule',
      // The monitoring areas' screens (modules/monitor/monitor-grants.ts).
      ...MONITOR_OPERATOR_CALLS,
      // The traceability screens, read only (modules/trace/trace-grants.ts).
      ...TRACE_OPERATOR_CALLS,
    ],
    buttons: [
      'iotdevice:export',
      'iotCommand:export',
      'alarmRecord:export',
      ...TRACE_OPERATOR_BUTTONS,
    ],
  },
  // A card-swipe billing service desk (modules/billing/billing-grants.ts): households, cards,
  // water rights, recharges and refunds; never prices, reversals or the ledger's reports.
  [ROLE_CASHIER]: { urls: BILLING_CASHIER_CALLS, buttons: BILLING_CASHIER_BUTTONS },
};
