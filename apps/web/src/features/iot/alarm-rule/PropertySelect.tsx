import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import type { LabeledValue } from '../../../resource/form-values';
import { useRuleProperties } from './rule-properties';

/**
 * The property an alarm rule watches, chosen from the thing model of the product (or device)
 * the form names, instead of typing its key.
 */
export function PropertySelect({
  value,
  onChange,
  id,
}: {
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const label = useLabel();
  const form = Form.useFormInstance();
  const product = Form.useWatch('productId', form) as LabeledValue | undefined;
  const device = Form.useWatch('deviceId', form) as LabeledValue | undefined;
  const properties = useRuleProperties(product, device);
  const scoped = !!(product || device);
  const options = (properties.data ?? []).map((property) => ({
    value: property.key,
    label: `${label(property.name)} (${property.key}${property.unit ? `, ${property.unit}` : ''})`,
  }));
  return (
    <Select
      id={id}
      value={value ?? undefined}
      onChange={(key: string | undefined) => onChange?.(key)}
      options={options}
      loading={properties.isFetching}
      disabled={!scoped}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={
        scoped
          ? properties.data?.length === 0
            ? t('iot.alarmRule.noNumericProperty')
            : undefined
          : t('iot.alarmRule.chooseProductFirst')
      }
      data-testid="alarm-rule-property"
    />
  );
}
