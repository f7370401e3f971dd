import { defineEntity, f, label } from '../../entity-kit';
import { MENU_TARGET } from './targets';

/** The menu tree: what the sidebar shows and route generation allows (spec §3 Menu). */
export const sysMenuEntity = defineEntity({
  name: 'SysMenu',
  title: label('Menus', '菜单管理', '選單管理'),
  table: 'sys_menu',
  path: '/api/admin/sysmenu',
  route: '/admin/sysmenu',
  menuCode: 'sysmenu',
  scope: 'tenant',
  tree: { parent: 'menuParent', title: 'menuName', sequence: 'menuSequence' },
  fields: {
    menuCode: f.text({
      label: label('Menu code', '菜单编码', '選單編碼'),
      required: true,
      max: 64,
      unique: true,
    }),
    menuName: f.text({
      label: label('Menu name', '菜单名称', '選單名稱'),
      required: true,
      max: 64,
    }),
    menuIcon: f.icon({ label: label('Icon', '图标', '圖示') }),
    menuPath: f.text({ label: label('Path', '路径', '路徑'), required: true, max: 255 }),
    menuComponent: f.text({
      label: label('Component', '组件', '元件'),
      max: 255,
      search: undefined,
    }),
    menuSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      max: 100_000,
    }),
    menuParent: f.ref({
      label: label('Parent menu', '上级菜单', '上級選單'),
      target: MENU_TARGET,
      list: false,
    }),
    menuStatus: f.status({ column: 'menu_status' }),
  },
});

/** Buttons of a menu, granted per role (`<menu>:<action>` codes the screens check). */
export const sysMenuButtonEntity = defineEntity({
  name: 'SysMenuButton',
  title: label('Menu buttons', '菜单按钮', '選單按鈕'),
  table: 'sys_menu_button',
  path: '/api/admin/sysmenu',
  route: '/admin/sysmenu',
  menuCode: 'sysmenu',
  scope: 'tenant',
  defaultSort: { field: 'buttonCode', order: 'ascend' },
  fields: {
    menuId: f.ref({ label: label('Menu', '菜单', '選單'), required: true, target: MENU_TARGET }),
    buttonCode: f.text({
      label: label('Button code', '按钮编码', '按鈕編碼'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    buttonName: f.text({
      label: label('Button name', '按钮名称', '按鈕名稱'),
      required: true,
      max: 64,
    }),
  },
});
