import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAME_LANGS, useNameRules } from './field-rules';

/** The values of an enum and their labels in every language (valve state 0 closed, 1 open ...). */
export function EnumOptions() {
  const { t } = useTranslation();
  const nameRules = useNameRules();
  return (
    <Form.List
      name="options"
      rules={[
        {
          // thingParamSchema refuses an enum without options.
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
              {NAME_LANGS.map((lang) => (
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
  );
}
