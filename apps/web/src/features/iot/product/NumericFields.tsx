import { Col, Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';

/** Unit, precision and range of a number or integer, a quarter of a row each. */
export function NumericFields() {
  const { t } = useTranslation();
  return (
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
          // Checked again when the minimum changes, as thingParamSchema checks the pair.
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
  );
}
