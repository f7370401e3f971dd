import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { THING_KEY_PATTERN, THING_VALUE_TYPES, type ThingParam } from '@shuili/contract';
import { Button, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { keyTaken } from './list-edit';
import { useFactors } from './use-factors';

/** A parameter, or a property with its access. */
export type ParamValues = ThingParam & { access?: 'r' | 'rw' };
type Values = ParamValues;

export interface ParamDialogProps {
  /** Closed when undefined; an empty object opens it for a new row. */
  value: Partial<Values> | undefined;
  /** The sibling rows, for the duplicate-key check. */
  siblings: readonly { key: string }[];
  /** The edited row's index among the siblings; undefined for a new row. */
  index: number | undefined;
  /** Properties say whether the console may write them. */
  withAccess: boolean;
  onSave: (value: Values) => void;
  onClose: () => void;
}

const LANGS = ['en', 'zh', 'tw'] as const;
const NUMERIC = new Set(['number', 'integer']);

function clean(values: Values, withAccess: boolean): Values {
  const numeric = NUMERIC.has(values.type);
  const result: Values = { key: values.key.trim(), name: values.name, type: values.type };
  if (withAccess) result.access = values.access ?? 'r';
  if (values.factor) result.factor = values.factor;
  if (numeric && values.unit?.trim()) result.unit = values.unit.trim();
  if (numeric && typeof values.min === 'number') result.min = values.min;
  if (numeric && typeof values.max === 'number') result.max = values.max;
  if (numeric && typeof values.precision === 'number') result.precision = values.precision;
  if (values.type === 'enum') result.options = values.options ?? [];
  return result;
}

/** Edits one property or parameter with the rules of thingParamSchema, named field by field. */
export function ParamDialog(props: ParamDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('type', form);
  const factors = useFactors();
  const { siblings, index } = props;

  const keyRules: Rule[] = [
    { required: true, message: t('iot.thingModel.keyRequired') },
    { pattern: THING_KEY_PATTERN, message: t('iot.thingModel.keyPattern') },
    {
      validator: (_, key: string | undefined) =>
        key && keyTaken(siblings, key.trim(), index)
          ? Promise.reject(new Error(t('iot.thingModel.duplicateKey', { key })))
          : Promise.resolve(),
    },
  ];
  const nameRules: Rule[] = [
    { required: true, whitespace: true, message: t('iot.thingModel.nameRequired') },
    { max: 64, message: t('iot.thingModel.tooLong', { max: 64 }) },
  ];

  const chooseFactor = (code: string | undefined) => {
    const factor = factors.data?.find((row) => row.factorCode === code);
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

  const submit = async () => {
    const values = await form.validateFields();
    props.onSave(clean(values, props.withAccess));
  };

  return (
    <Modal
      open={props.value !== undefined}
      title={t(index === undefined ? 'iot.thingModel.addParam' : 'iot.thingModel.editParam')}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('iot.thingModel.apply')}
      cancelText={t('iot.cancel')}
      destroyOnHidden
      maskClosable={false}
      width={720}
      okButtonProps={{ 'data-testid': 'param-dialog-ok' } as Record<string, string>}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          type: 'number',
          ...(props.withAccess ? { access: 'r' } : {}),
          ...props.value,
        }}
        data-testid="param-dialog"
        preserve={false}
      >
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="key" label={t('iot.thingModel.key')} rules={keyRules}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
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
          {LANGS.map((lang) => (
            <Col span={8} key={lang}>
              <Form.Item
                name={['name', lang]}
                label={t(`iot.thingModel.nameIn.${lang}`)}
                rules={nameRules}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
          ))}
          {props.withAccess && (
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
          <Col span={12}>
            <Form.Item name="factor" label={t('iot.thingModel.factor')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={factors.isLoading}
                onChange={chooseFactor}
                options={(factors.data ?? []).map((row) => ({
                  value: row.factorCode,
                  label: `${row.factorName} (${row.factorCode})`,
                }))}
              />
            </Form.Item>
          </Col>
          {NUMERIC.has(type ?? '') && (
            <>
              <Col span={6}>
                <Form.Item
                  name="unit"
                  label={t('iot.thingModel.unit')}
                  rules={[{ max: 16, message: t('iot.thingModel.tooLong', { max: 16 }) }]}
                >
                  <Input maxLength={16} />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="precision" label={t('iot.thingModel.precision')}>
                  <InputNumber min={0} max={6} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="min" label={t('iot.thingModel.min')}>
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item
                  name="max"
                  label={t('iot.thingModel.max')}
                  dependencies={['min']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_, max: number | null | undefined) => {
                        const min = getFieldValue('min') as number | null | undefined;
                        return typeof min === 'number' && typeof max === 'number' && min > max
                          ? Promise.reject(new Error(t('iot.thingModel.maxBelowMin')))
                          : Promise.resolve();
                      },
                    }),
                  ]}
                >
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </>
          )}
        </Row>
        {type === 'enum' && (
          <Form.List
            name="options"
            rules={[
              {
                validator: (_, options: unknown[] | undefined) =>
                  options && options.length > 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('iot.thingModel.optionsRequired'))),
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <Form.Item label={t('iot.thingModel.options')}>
                {fields.map((field) => (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item
                      name={[field.name, 'value']}
                      rules={[{ required: true, message: t('iot.thingModel.valueRequired') }]}
                    >
                      <InputNumber
                        precision={0}
                        placeholder={t('iot.thingModel.optionValue')}
                        aria-label={t('iot.thingModel.optionValue')}
                      />
                    </Form.Item>
                    {LANGS.map((lang) => (
                      <Form.Item key={lang} name={[field.name, 'label', lang]} rules={nameRules}>
                        <Input
                          maxLength={64}
                          placeholder={t(`iot.thingModel.nameIn.${lang}`)}
                          aria-label={t(`iot.thingModel.nameIn.${lang}`)}
                        />
                      </Form.Item>
                    ))}
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      aria-label={t('iot.thingModel.remove')}
                      onClick={() => remove(field.name)}
                    />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>
                  {t('iot.thingModel.addOption')}
                </Button>
                <Form.ErrorList errors={errors} />
              </Form.Item>
            )}
          </Form.List>
        )}
      </Form>
    </Modal>
  );
}
