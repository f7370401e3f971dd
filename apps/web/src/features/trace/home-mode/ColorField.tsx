import { TRACE_PAGE_DEFAULT_COLOR } from '@shuili/contract';
import { Button, ColorPicker, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The page's colour: a picked #rrggbb, or none (the page's own green, shown as such so the
 * picker never says "no colour" for a page that has one).
 */
export function ColorField({
  value,
  onChange,
}: {
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} align="center">
      <ColorPicker
        showText
        disabledAlpha
        format="hex"
        value={value || TRACE_PAGE_DEFAULT_COLOR}
        onChangeComplete={(color) => onChange?.(color.toHexString())}
        data-testid="home-mode-color"
      />
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
