import { Col, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ParamValues } from './param-values';
import type { FactorRow } from './use-factors';

export interface FactorFieldProps {
  /** The catalogue; undefined while it loads. */
  factors: readonly FactorRow[] | undefined;
  loading: boolean;
}

/** The factor a parameter measures, chosen from the catalogue; it fills in the usual unit and range. */
export function FactorField(props: FactorFieldProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ParamValues>();

  const chooseFactor = (code: string | undefined) => {
    const factor = props.factors?.find((row) => row.factorCode === code);
    if (!factor) return;
    // The catalogue's unit and range are the usual ones; what the user typed already wins.
    const current = form.getFieldsValue();
    form.setFieldsValue({
      unit: current.unit || factor.unit || undefined,
      precision: current.precision ?? factor.precision ?? undefined,
      min: current.min ?? factor.minValue ?? undefined,
      max: current.max ?? factor.maxValue ?? undefined,
    });
  };

  return (
    <Col span={12}>
      <Form.Item name="factor" label={t('iot.thingModel.factor')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={props.loading}
          onChange={chooseFactor}
          options={(props.factors ?? []).map((row) => ({
            value: row.factorCode,
            label: `${row.factorName} (${row.factorCode})`,
          }))}
        />
      </Form.Item>
    </Col>
  );
}
