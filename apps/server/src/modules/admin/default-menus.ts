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
}

export const DEFAULT_MENUS: MenuSeed[] = [
  {
    menuCode: 'home',
    menuName: 'route.home',
    menuIcon: 'home',
    menuPath: '/home',
    menuComponent: 'Layout',
    menuSequence: 1,
    roles: ['ROLE_OPERATOR'],
  },
  {
    menuCode: 'workbench',
    menuName: 'route.workbench',
    menuIcon: 'dashboard',
    menuPath: '/home/workbench',
    menuComponent: 'home/Workbench',
    menuSequence: 1,
    parent: 'home',
    roles: ['ROLE_OPERATOR'],
  },
];

/** The roles every tenant starts with. */
export const DEFAULT_ROLES = [
  {
    roleCode: 'ROLE_ADMIN',
    roleName: 'Administrator',
    roleDescription: 'Everything inside the tenant',
  },
  {
    roleCode: 'ROLE_OPERATOR',
    roleName: 'Operator',
    roleDescription: 'Day-to-day monitoring and control',
  },
];
