import { ROLE_ADMIN } from '@shuili/contract';
import type { AppRoute } from '../core/app-route';
import { lazyPage } from '../core/lazy-page';
import { areaRoutes } from './area-routes';

/**
 * Spec §6 meta roles: screens only an administrator should ever see. A role granted such a menu
 * (or its URLs) still gets no route; the server checks the calls besides.
 */
const ADMIN_ONLY = [ROLE_ADMIN];

// Each screen is its own chunk, loaded when first opened (never by the sign-in page), together
// with its area's strings (the generic entity screens' and the area's own: i18n/features).
const adminScreen: typeof lazyPage = (load, name) => lazyPage(load, name, ['resource', 'admin']);
const iotScreen: typeof lazyPage = (load, name) => lazyPage(load, name, ['resource', 'iot']);

const admin = {
  RegionalPage: adminScreen(() => import('../features/admin/RegionalPage'), 'RegionalPage'),
  SysUserPage: adminScreen(() => import('../features/admin/SysUserPage'), 'SysUserPage'),
  SysPostPage: adminScreen(() => import('../features/admin/SysPostPage'), 'SysPostPage'),
  SysMenuPage: adminScreen(() => import('../features/admin/SysMenuPage'), 'SysMenuPage'),
  SysOrgPage: adminScreen(() => import('../features/admin/SysOrgPage'), 'SysOrgPage'),
  SysDictPage: adminScreen(() => import('../features/admin/SysDictPage'), 'SysDictPage'),
  SysRegionPage: adminScreen(() => import('../features/admin/SysRegionPage'), 'SysRegionPage'),
  SysParamPage: adminScreen(() => import('../features/admin/SysParamPage'), 'SysParamPage'),
  NotificationPage: adminScreen(
    () => import('../features/admin/NotificationPage'),
    'NotificationPage',
  ),
  AppClientPage: adminScreen(() => import('../features/admin/AppClientPage'), 'AppClientPage'),
  OperationLogPage: adminScreen(
    () => import('../features/admin/OperationLogPage'),
    'OperationLogPage',
  ),
  LoginLogPage: adminScreen(() => import('../features/admin/LoginLogPage'), 'LoginLogPage'),
  SysRolePage: adminScreen(() => import('../features/admin/SysRolePage'), 'SysRolePage'),
  SysUrlPage: adminScreen(() => import('../features/admin/SysUrlPage'), 'SysUrlPage'),
  DataPermissionPage: adminScreen(
    () => import('../features/admin/DataPermissionPage'),
    'DataPermissionPage',
  ),
  SysTenantPage: adminScreen(() => import('../features/admin/SysTenantPage'), 'SysTenantPage'),
};

const jobScreen: typeof lazyPage = (load, name) => lazyPage(load, name, ['resource', 'jobs']);
const workflowScreen: typeof lazyPage = (load, name) =>
  lazyPage(load, name, ['resource', 'jobs', 'workflow']);

const iotPage = {
  IotProjectPage: iotScreen(() => import('../features/iot/pages/IotProjectPage'), 'IotProjectPage'),
  IotProductPage: iotScreen(() => import('../features/iot/pages/IotProductPage'), 'IotProductPage'),
  IotFactorPage: iotScreen(() => import('../features/iot/pages/IotFactorPage'), 'IotFactorPage'),
  SensorTemplatePage: iotScreen(
    () => import('../features/iot/pages/SensorTemplatePage'),
    'SensorTemplatePage',
  ),
  SensorInstancePage: iotScreen(
    () => import('../features/iot/pages/SensorInstancePage'),
    'SensorInstancePage',
  ),
  ControllerTemplatePage: iotScreen(
    () => import('../features/iot/pages/ControllerTemplatePage'),
    'ControllerTemplatePage',
  ),
  ControllerInstancePage: iotScreen(
    () => import('../features/iot/pages/ControllerInstancePage'),
    'ControllerInstancePage',
  ),
  IotDeviceListPage: iotScreen(
    () => import('../features/iot/pages/IotDeviceListPage'),
    'IotDeviceListPage',
  ),
  DeviceFilePage: iotScreen(() => import('../features/iot/pages/DeviceFilePage'), 'DeviceFilePage'),
  DeviceImagePage: iotScreen(
    () => import('../features/iot/pages/DeviceImagePage'),
    'DeviceImagePage',
  ),
  IotCommandPage: iotScreen(() => import('../features/iot/pages/IotCommandPage'), 'IotCommandPage'),
  AlarmRulePage: iotScreen(() => import('../features/iot/pages/AlarmRulePage'), 'AlarmRulePage'),
  AlarmRecordPage: iotScreen(
    () => import('../features/iot/pages/AlarmRecordPage'),
    'AlarmRecordPage',
  ),
  ThingModelPage: iotScreen(
    () => import('../features/iot/product/ThingModelPage'),
    'ThingModelPage',
  ),
  DevicePage: iotScreen(() => import('../features/iot/device/DevicePage'), 'DevicePage'),
};

/**
 * The role- and menu-gated routes of spec §2 route groups. Each area's issue registers its routes
 * here (with meta.roles where the area needs them); route generation decides per user which of
 * them exist. Paths equal the entities' `route` (async-routes.test.ts), and titles are the
 * route.* keys the server's menus name.
 */
export const asyncRoutes: AppRoute[] = [
  {
    path: '/admin',
    alwaysShow: true,
    meta: { title: 'route.admin', icon: 'setting' },
    children: [
      {
        path: 'regional',
        name: 'Regional',
        page: admin.RegionalPage,
        meta: { title: 'route.regional', icon: 'environment' },
      },
      {
        path: 'sysuser',
        name: 'SysUser',
        page: admin.SysUserPage,
        meta: { title: 'route.sysuser', icon: 'user' },
      },
      {
        path: 'syspost',
        name: 'SysPost',
        page: admin.SysPostPage,
        meta: { title: 'route.syspost', icon: 'idcard' },
      },
      {
        path: 'sysmenu',
        name: 'SysMenu',
        page: admin.SysMenuPage,
        meta: { title: 'route.sysmenu', icon: 'menu' },
      },
      {
        path: 'sysorg',
        name: 'SysOrg',
        page: admin.SysOrgPage,
        meta: { title: 'route.sysorg', icon: 'apartment' },
      },
      {
        path: 'sysdict',
        name: 'SysDict',
        page: admin.SysDictPage,
        meta: { title: 'route.sysdict', icon: 'book' },
      },
      {
        path: 'sysregion',
        name: 'SysRegion',
        page: admin.SysRegionPage,
        meta: { title: 'route.sysregion', icon: 'global' },
      },
      {
        path: 'sysparam',
        name: 'SysParam',
        page: admin.SysParamPage,
        meta: { title: 'route.sysparam', icon: 'control' },
      },
      {
        path: 'notification',
        name: 'Notification',
        page: admin.NotificationPage,
        meta: { title: 'route.notification', icon: 'notification' },
      },
      {
        path: 'appclient',
        name: 'AppClient',
        page: admin.AppClientPage,
        meta: { title: 'route.appclient', icon: 'api', roles: ADMIN_ONLY },
      },
      {
        path: 'operationlog',
        name: 'OperationLog',
        page: admin.OperationLogPage,
        meta: { title: 'route.operationlog', icon: 'file-search' },
      },
      {
        path: 'loginlog',
        name: 'LoginLog',
        page: admin.LoginLogPage,
        meta: { title: 'route.loginlog', icon: 'login' },
      },
      {
        path: 'regionalManagement',
        name: 'RegionalManagement',
        page: adminScreen(
          () => import('../features/admin-extra/RegionalManagementPage'),
          'RegionalManagementPage',
        ),
        meta: { title: 'route.regionalManagement', icon: 'cluster' },
      },
      {
        path: 'onlinesysuser',
        name: 'OnlineSysUser',
        page: adminScreen(() => import('../features/admin-extra/OnlineUserPage'), 'OnlineUserPage'),
        meta: { title: 'route.onlinesysuser', icon: 'wifi', roles: ADMIN_ONLY },
      },
    ],
  },
  {
    path: '/authority',
    alwaysShow: true,
    meta: { title: 'route.authority', icon: 'safety' },
    children: [
      {
        path: 'sysrole',
        name: 'SysRole',
        page: admin.SysRolePage,
        meta: { title: 'route.sysrole', icon: 'team' },
      },
      {
        path: 'sysurl',
        name: 'SysUrl',
        page: admin.SysUrlPage,
        meta: { title: 'route.sysurl', icon: 'link', roles: ADMIN_ONLY },
      },
      {
        path: 'datapermission',
        name: 'DataPermission',
        page: admin.DataPermissionPage,
        meta: { title: 'route.datapermission', icon: 'database', roles: ADMIN_ONLY },
      },
    ],
  },
  {
    // The IoT screens keep the spec's top-level paths (/IOTprojectList ...) under one menu group.
    path: '/iot',
    alwaysShow: true,
    meta: { title: 'route.iot', icon: 'cluster' },
    children: [
      {
        path: '/IOTprojectList',
        name: 'IotProject',
        page: iotPage.IotProjectPage,
        meta: { title: 'route.iotproject', icon: 'profile' },
      },
      {
        path: '/IOTproductList',
        name: 'IotProduct',
        page: iotPage.IotProductPage,
        meta: { title: 'route.iotproduct', icon: 'appstore' },
      },
      {
        path: '/IOTproductShowEdit/:serialNo',
        name: 'IotThingModel',
        hidden: true,
        page: iotPage.ThingModelPage,
        meta: { title: 'route.thingModel', activeMenu: '/IOTproductList', noCache: true },
      },
      {
        path: '/factorList',
        name: 'IotFactor',
        page: iotPage.IotFactorPage,
        meta: { title: 'route.iotfactor', icon: 'tags' },
      },
      {
        path: '/sensorTemplate',
        name: 'SensorTemplate',
        page: iotPage.SensorTemplatePage,
        meta: { title: 'route.sensortemplate', icon: 'dashboard' },
      },
      {
        path: '/controllerTemplate',
        name: 'ControllerTemplate',
        page: iotPage.ControllerTemplatePage,
        meta: { title: 'route.controllertemplate', icon: 'control' },
      },
      {
        path: 'deviceList',
        name: 'IotDeviceList',
        page: iotPage.IotDeviceListPage,
        meta: { title: 'route.iotdevice', icon: 'database' },
      },
      {
        path: 'device/:id',
        name: 'IotDevice',
        hidden: true,
        page: iotPage.DevicePage,
        meta: { title: 'route.iotDevicePage', activeMenu: '/iot/deviceList', noCache: true },
      },
      {
        path: '/sensorInstance',
        name: 'SensorInstance',
        page: iotPage.SensorInstancePage,
        meta: { title: 'route.sensorinstance', icon: 'bars' },
      },
      {
        path: '/controllerInstance',
        name: 'ControllerInstance',
        page: iotPage.ControllerInstancePage,
        meta: { title: 'route.controllerinstance', icon: 'tool' },
      },
      {
        path: '/wenjianList',
        name: 'DeviceFile',
        page: iotPage.DeviceFilePage,
        meta: { title: 'route.devicefile', icon: 'file-text' },
      },
      {
        path: '/imageList',
        name: 'DeviceImage',
        page: iotPage.DeviceImagePage,
        meta: { title: 'route.deviceimage', icon: 'file-search' },
      },
      {
        path: 'command',
        name: 'IotCommand',
        page: iotPage.IotCommandPage,
        meta: { title: 'route.iotCommand', icon: 'history' },
      },
      {
        path: 'alarmRule',
        name: 'AlarmRule',
        page: iotPage.AlarmRulePage,
        meta: { title: 'route.alarmRule', icon: 'setting' },
      },
      {
        path: 'alarmRecord',
        name: 'AlarmRecord',
        page: iotPage.AlarmRecordPage,
        meta: { title: 'route.alarmRecord', icon: 'bell' },
      },
    ],
  },
  {
    // The job scheduler (issue 22): the spec's top-level paths under one menu group.
    path: '/job',
    alwaysShow: true,
    meta: { title: 'route.job', icon: 'thunderbolt' },
    children: [
      {
        path: '/appmonitor',
        name: 'AppMonitor',
        page: jobScreen(() => import('../features/jobs/AppMonitorPage'), 'AppMonitorPage'),
        meta: { title: 'route.appmonitor', icon: 'desktop' },
      },
      {
        path: '/jobinfo',
        name: 'JobInfo',
        page: jobScreen(() => import('../features/jobs/JobInfoPage'), 'JobInfoPage'),
        meta: { title: 'route.jobinfo', icon: 'profile' },
      },
      {
        path: '/taskinstance',
        name: 'TaskInstance',
        page: jobScreen(() => import('../features/jobs/TaskInstancePage'), 'TaskInstancePage'),
        meta: { title: 'route.taskinstance', icon: 'bars' },
      },
      {
        path: '/workflowinfo',
        name: 'WorkflowInfo',
        page: workflowScreen(
          () => import('../features/workflow/WorkflowInfoPage'),
          'WorkflowInfoPage',
        ),
        meta: { title: 'route.workflowinfo', icon: 'apartment' },
      },
      {
        path: '/workfloweditor',
        name: 'WorkflowEditor',
        hidden: true,
        page: workflowScreen(
          () => import('../features/workflow/WorkflowEditorPage'),
          'WorkflowEditorPage',
        ),
        meta: { title: 'route.workfloweditor', activeMenu: '/workflowinfo', noCache: true },
      },
      {
        path: '/dagworkflowinstance',
        name: 'DagWorkflowInstance',
        page: workflowScreen(
          () => import('../features/workflow/DagWorkflowInstancePage'),
          'DagWorkflowInstancePage',
        ),
        meta: { title: 'route.dagworkflowinstance', icon: 'cluster' },
      },
      {
        path: '/workflowinstancedetails',
        name: 'WorkflowInstanceDetails',
        hidden: true,
        page: workflowScreen(
          () => import('../features/workflow/WorkflowInstanceDetailsPage'),
          'WorkflowInstanceDetailsPage',
        ),
        meta: {
          title: 'route.workflowinstancedetails',
          activeMenu: '/dagworkflowinstance',
          noCache: true,
        },
      },
      {
        path: '/dagtaskinstance',
        name: 'DagTaskInstance',
        page: workflowScreen(
          () => import('../features/workflow/DagTaskInstancePage'),
          'DagTaskInstancePage',
        ),
        meta: { title: 'route.dagtaskinstance', icon: 'table' },
      },
    ],
  },
  // The monitoring areas and the cross-area screens, from the area declarations.
  ...areaRoutes(),
  {
    path: '/systenant',
    name: 'SysTenant',
    page: admin.SysTenantPage,
    meta: { title: 'route.systenant', icon: 'cluster', roles: ADMIN_ONLY },
  },
];
