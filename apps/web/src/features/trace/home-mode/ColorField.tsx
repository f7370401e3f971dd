import { TRACE_PAGE_DEFAULT_COLOR } from '@shuili/contract';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const swatch = {
  width: 40,
  height: 28,
  padding: 2,
  border: '1px solid #d9d9d9',
  borderRadius: 6,
  background: 'none',
  cursor: 'pointer',
};

/**
 * The page's colour: a picked #rrggbb, or none (the page's own green, shown as such so the
 * field never says "no colour" for a page that has one). The browser's own colour input: antd's
 * picker would bring its inputs and popups into the form kit every page, sign-in included, loads.
 */
export function ColorField({
  value,
  onChange,
}: {
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const shown = (value || TRACE_PAGE_DEFAULT_COLOR).toLowerCase();
  return (
    <Flex gap={8} align="center">
      <input
        type="color"
        aria-label={t('trace.homeMode.color')}
        value={shown}
        onChange={(event) => onChange?.(event.target.value)}
        data-testid="home-mode-color"
        style={swatch}
      />
      <Typography.Text code>{shown}</Typography.Text>
      {value ? (
        <Button size="small" type="link" onClick={() => onChange?.('')}>
          {t('trace.homeMode.colorDefault')}
        </Button>
      ) : (
        <Typography.Text type="secondary">{t('trace.homeMode.colorIsDefault')}</Typography.Text>
      )}
    </Flex>
  );
}
