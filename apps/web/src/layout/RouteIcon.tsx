import {
  AppstoreOutlined,
  BellOutlined,
  DashboardOutlined,
  HomeOutlined,
  LinkOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

// Route meta and server menus name icons by string; each icon is imported on its own so the
// console carries only these. Areas add theirs here.
const icons: Record<string, ComponentType> = {
  bell: BellOutlined,
  dashboard: DashboardOutlined,
  home: HomeOutlined,
  link: LinkOutlined,
  setting: SettingOutlined,
  user: UserOutlined,
};

/** The icon a route's meta names; unknown names get a neutral one rather than nothing. */
export function RouteIcon({ name }: { name: string }) {
  const Icon = icons[name] ?? AppstoreOutlined;
  return <Icon />;
}
