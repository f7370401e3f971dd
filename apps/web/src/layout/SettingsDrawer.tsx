import { CheckOutlined } from '@ant-design/icons';
import { Drawer, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeSetting, PRESET_COLORS, useSettingsStore, type Settings } from './settings-store';
import styles from './SettingsDrawer.module.css';

export interface SettingsDrawerProps {
  open: boolean;
  onClose: () => void;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.row}>
      <span>{label}</span>
      {children}
    </div>
  );
}

/**
 * Spec §2 settings drawer: theme colour (spec §3's predefined colours), tags view, fixed header,
 * sidebar logo. Every change applies at once and is kept for the next visit.
 */
export function SettingsDrawer({ open, onClose }: SettingsDrawerProps) {
  const { t } = useTranslation();
  const settings = useSettingsStore();

  const toggle = (key: keyof Omit<Settings, 'theme'>, label: string) => (
    <Row label={label}>
      <Switch
        checked={settings[key]}
        onChange={(checked) => changeSetting(key, checked)}
        aria-label={label}
        data-testid={`setting-${key}`}
      />
    </Row>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('settings.title')}
      size={300}
      data-testid="settings-drawer"
    >
      <Row label={t('settings.theme')}>
        <div role="radiogroup" aria-label={t('settings.theme')} className={styles.swatches}>
          {PRESET_COLORS.map((color) => {
            const chosen = color.toLowerCase() === settings.theme.toLowerCase();
            return (
              <button
                key={color}
                type="button"
                role="radio"
                aria-checked={chosen}
                aria-label={t('settings.themeColor', { color })}
                title={color}
                className={styles.swatch}
                style={{ background: color }}
                onClick={() => changeSetting('theme', color)}
                data-testid={`theme-${color}`}
              >
                {chosen && <CheckOutlined />}
              </button>
            );
          })}
        </div>
      </Row>
      {toggle('tagsView', t('settings.tagsView'))}
      {toggle('fixedHeader', t('settings.fixedHeader'))}
      {toggle('sidebarLogo', t('settings.sidebarLogo'))}
    </Drawer>
  );
}
