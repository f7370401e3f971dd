import { THING_VALUE_TYPES } from '@shuili/contract';
import { Col, Form, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { EnumOptions } from './EnumOptions';
import { FactorField } from './FactorField';
import { FormDialog } from './FormDialog';
import { KeyField, NameFields } from './IdentityFields';
import type { RowDialogProps } from './ListTable';
import { NumericFields } from './NumericFields';
import { cleanParam, NUMERIC_TYPES, type ParamValues } from './param-values';
import { useFactors } from './use-factors';

export interface ParamDialogProps extends RowDialogProps<ParamValues> {
  /** Properties say whether the console may write them. */
  withAccess: boolean;
}

/** Edits one property or parameter with the rules of thingParamSchema, named field by field. */
export function ParamDialog(props: ParamDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ParamValues>();
  const type = Form.useWatch('type', form);
  // Asked for with the list rather than when the dialog opens, so the choice is ready by then.
  const factors = useFactors();
  const { siblings, index, withAccess } = props;

  return (
    <FormDialog<ParamValues>
      open={props.value !== undefined}
      title={t(index === undefined ? 'iot.thingModel.addParam' : 'iot.thingModel.editParam')}
      width={720}
      form={form}
      initialValues={{ type: 'number', ...(withAccess ? { access: 'r' } : {}), ...props.value }}
      testId="param-dialog"
      okTestId="param-dialog-ok"
      onApply={(values) => props.onSave(cleanParam(values, withAccess))}
      onClose={props.onClose}
    >
      <Row gutter={12}>
        <KeyField siblings={siblings} index={index} />
        <Col span={12}>
          <Form.Item name="type" label={t('iot.thingModel.type')} rules={[{ required: true }]}>
            <Select
              options={THING_VALUE_TYPES.map((value) => ({
                value,
                label: t(`iot.thingModel.types.${value}`),
              }))}
            />
          </Form.Item>
        </Col>
        <NameFields />
        {withAccess && (
          <Col span={12}>
            <Form.Item name="access" label={t('iot.thingModel.access')}>
              <Radio.Group
                options={[
                  { value: 'r', label: t('iot.thingModel.accessR') },
                  { value: 'rw', label: t('iot.thingModel.accessRw') },
                ]}
              />
            </Form.Item>
          </Col>
        )}
        <FactorField factors={factors.data} loading={factors.isLoading} />
        {NUMERIC_TYPES.has(type ?? '') && <NumericFields />}
      </Row>
      {type === 'enum' && <EnumOptions />}
    </FormDialog>
  );
}
