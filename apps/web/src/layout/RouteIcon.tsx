import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarsOutlined,
  BellOutlined,
  BookOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  GlobalOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LinkOutlined,
  LockOutlined,
  LoginOutlined,
  MenuOutlined,
  NotificationOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

// Route meta and server menus name icons by string; each icon is imported on its own so the
// console carries only these. Areas add theirs here.
const icons: Record<string, ComponentType> = {
  apartment: ApartmentOutlined,
  api: ApiOutlined,
  appstore: AppstoreOutlined,
  audit: AuditOutlined,
  bank: BankOutlined,
  bars: BarsOutlined,
  bell: BellOutlined,
  book: BookOutlined,
  cluster: ClusterOutlined,
  control: ControlOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
  environment: EnvironmentOutlined,
  'file-search': FileSearchOutlined,
  'file-text': FileTextOutlined,
  global: GlobalOutlined,
  history: HistoryOutlined,
  home: HomeOutlined,
  idcard: IdcardOutlined,
  key: KeyOutlined,
  link: LinkOutlined,
  lock: LockOutlined,
  login: LoginOutlined,
  menu: MenuOutlined,
  notification: NotificationOutlined,
  profile: ProfileOutlined,
  safety: SafetyOutlined,
  setting: SettingOutlined,
  solution: SolutionOutlined,
  table: TableOutlined,
  tags: TagsOutlined,
  team: TeamOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  wifi: WifiOutlined,
};

/** Every icon name a route or menu may use (the menu form's icon picker offers them). */
export const ROUTE_ICON_NAMES: readonly string[] = Object.keys(icons);

/** The icon a route's meta names; unknown names get a neutral one rather than nothing. */
export function RouteIcon({ name }: { name: string }) {
  const Icon = icons[name] ?? AppstoreOutlined;
  return <Icon />;
}
