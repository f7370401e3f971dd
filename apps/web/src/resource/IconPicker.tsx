import { CloseCircleFilled } from '@ant-design/icons';
import { Button, Empty, Input, Popover, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTE_ICON_NAMES, RouteIcon } from '../layout/RouteIcon';
import styles from './IconPicker.module.css';

export interface IconPickerProps {
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  id?: string;
  disabled?: boolean;
}

/** Chooses one of the console's route icons from a searchable grid. */
export function IconPicker({ value, onChange, id, disabled }: IconPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const wanted = search.trim().toLowerCase();
  const names = ROUTE_ICON_NAMES.filter((name) => name.includes(wanted));

  const grid = (
    <div className={styles.panel}>
      <Input.Search
        allowClear
        size="small"
        placeholder={t('resource.icon.search')}
        aria-label={t('resource.icon.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {names.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('resource.icon.none')} />
      ) : (
        <div className={styles.grid} role="listbox" aria-label={t('resource.icon.choose')}>
          {names.map((name) => (
            <Tooltip key={name} title={name}>
              <Button
                type={name === value ? 'primary' : 'text'}
                role="option"
                aria-selected={name === value}
                aria-label={name}
                data-route-icon={name}
                icon={<RouteIcon name={name} />}
                onClick={() => {
                  onChange?.(name);
                  setOpen(false);
                }}
              />
            </Tooltip>
          ))}
        </div>
      )}
    </div>
  );

  return (
    <Space.Compact block>
      <Popover
        content={grid}
        trigger="click"
        open={open && !disabled}
        onOpenChange={setOpen}
        placement="bottomLeft"
      >
        <Button
          id={id}
          disabled={disabled}
          className={styles.trigger}
          icon={value ? <RouteIcon name={value} /> : undefined}
          data-testid="icon-picker"
        >
          {value ? value : <span className={styles.placeholder}>{t('resource.icon.choose')}</span>}
        </Button>
      </Popover>
      {value && !disabled && (
        <Button
          aria-label={t('resource.icon.clear')}
          icon={<CloseCircleFilled />}
          onClick={() => onChange?.(undefined)}
        />
      )}
    </Space.Compact>
  );
}
