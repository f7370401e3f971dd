import { create } from 'zustand';

/** Spec §3: the theme colours the settings drawer offers; the first is the default. */
export const PRESET_COLORS = [
  '#1890ff',
  '#409EFF',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959CD',
  '#f5222d',
] as const;

/** Spec §3 settings the user can change in the drawer. */
export interface Settings {
  theme: string;
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  supportPinyinSearch: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  theme: PRESET_COLORS[0],
  showSettings: true,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
  supportPinyinSearch: true,
};

/** Kept across reloads in local storage: a look the user chose belongs to this browser. */
export const SETTINGS_KEY = 'shuili.settings';

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The stored settings, each checked; anything missing, hand-edited or stale takes its default. */
export function readSettings(raw: string | null): Settings {
  let stored: unknown;
  try {
    stored = JSON.parse(raw ?? '{}');
  } catch {
    stored = {};
  }
  const value = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const flag = (key: Exclude<keyof Settings, 'theme'>) =>
    typeof value[key] === 'boolean' ? value[key] : DEFAULT_SETTINGS[key];
  return {
    theme:
      typeof value.theme === 'string' && HEX_COLOR.test(value.theme)
        ? value.theme
        : DEFAULT_SETTINGS.theme,
    showSettings: flag('showSettings'),
    tagsView: flag('tagsView'),
    fixedHeader: flag('fixedHeader'),
    sidebarLogo: flag('sidebarLogo'),
    supportPinyinSearch: flag('supportPinyinSearch'),
  };
}

function load(): Settings {
  try {
    return readSettings(localStorage.getItem(SETTINGS_KEY));
  } catch {
    // Storage may be unavailable (privacy modes); the defaults then hold for this visit.
    return DEFAULT_SETTINGS;
  }
}

export const useSettingsStore = create<Settings>(() =>
  typeof localStorage === 'undefined' ? DEFAULT_SETTINGS : load(),
);

/** Changes one setting and keeps it for the next visit. */
export function changeSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  useSettingsStore.setState({ [key]: value } as Pick<Settings, K>);
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(useSettingsStore.getState()));
  } catch {
    // Not kept, but applied for this visit.
  }
}
