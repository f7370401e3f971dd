import { Col, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAME_LANGS, useKeyRules, useNameRules } from './field-rules';

export interface KeyFieldProps {
  siblings: readonly { key: string }[];
  index: number | undefined;
}

/** The row's key, half a row wide: the dialogs put their kind's main choice beside it. */
export function KeyField(props: KeyFieldProps) {
  const { t } = useTranslation();
  const rules = useKeyRules(props.siblings, props.index);
  return (
    <Col span={12}>
      <Form.Item name="key" label={t('iot.thingModel.key')} rules={rules}>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
    </Col>
  );
}

/** The row's name in every language, one third of a row each. */
export function NameFields() {
  const { t } = useTranslation();
  const rules = useNameRules();
  return NAME_LANGS.map((lang) => (
    <Col span={8} key={lang}>
      <Form.Item name={['name', lang]} label={t(`iot.thingModel.nameIn.${lang}`)} rules={rules}>
        <Input maxLength={64} />
      </Form.Item>
    </Col>
  ));
}
