import { ColumnHeightOutlined } from '@ant-design/icons';
import { TOAST_MS } from '@shuili/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../lib/feedback';
import { setSize, SIZES, useAppStore, type Size } from './app-state';

/** Spec §2 size select: default, medium, small, mini, the current one disabled. */
export function SizeSelect() {
  const { t } = useTranslation();
  const size = useAppStore((state) => state.size);

  const onChoose = (next: Size) => {
    setSize(next);
    feedback.success(t('navbar.sizeChanged'), TOAST_MS.success / 1000);
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((value) => ({
          key: value,
          disabled: value === size,
          label: <span data-testid={`size-${value}`}>{t(`navbar.sizes.${value}`)}</span>,
        })),
        onClick: ({ key }) => onChoose(key as Size),
      }}
    >
      {/* A native hint: a tooltip would cover the menu it opens. */}
      <Button
        type="text"
        aria-label={t('navbar.size')}
        title={t('navbar.size')}
        icon={<ColumnHeightOutlined />}
        data-testid="size-select"
      />
    </Dropdown>
  );
}
