import {
  THING_KEY_PATTERN,
  type ThingCommand,
  type ThingEvent,
  type ThingParam,
} from '@shuili/contract';
import { Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { keyTaken } from './list-edit';
import { ParamTable } from './ParamTable';

export type Entry = ThingEvent | ThingCommand;
export type EntryKind = 'event' | 'command';

export interface EntryDialogProps {
  kind: EntryKind;
  /** Closed when undefined; an empty object opens it for a new row. */
  value: Partial<Entry> | undefined;
  siblings: readonly { key: string }[];
  index: number | undefined;
  onSave: (value: Entry) => void;
  onClose: () => void;
}

const LANGS = ['en', 'zh', 'tw'] as const;
const EVENT_LEVELS = ['info', 'warning', 'fault'] as const;

/** The parameters as a form field: the table is the input. */
function ParamsField(props: { value?: ThingParam[]; onChange?: (value: ThingParam[]) => void }) {
  return (
    <ParamTable
      items={props.value ?? []}
      onChange={(items) => props.onChange?.(items)}
      withAccess={false}
      testId="entry-params"
    />
  );
}

/** Edits one event (key, name, level, parameters) or command (key, name, timeout, parameters). */
export function EntryDialog(props: EntryDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Entry>();
  const { siblings, index, kind } = props;
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
  const defaults =
    kind === 'event' ? { level: 'info', params: [] } : { timeoutSeconds: 30, params: [] };

  const submit = async () => {
    const values = await form.validateFields();
    props.onSave({ ...values, key: values.key.trim(), params: values.params ?? [] });
  };

  return (
    <Modal
      open={props.value !== undefined}
      title={t(
        kind === 'event'
          ? index === undefined
            ? 'iot.thingModel.addEvent'
            : 'iot.thingModel.editEvent'
          : index === undefined
            ? 'iot.thingModel.addCommand'
            : 'iot.thingModel.editCommand',
      )}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('iot.thingModel.apply')}
      cancelText={t('iot.cancel')}
      destroyOnHidden
      maskClosable={false}
      width={900}
    >
      <Form<Entry>
        form={form}
        layout="vertical"
        initialValues={{ ...defaults, ...props.value }}
        preserve={false}
        data-testid="entry-dialog"
      >
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="key" label={t('iot.thingModel.key')} rules={keyRules}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            {kind === 'event' ? (
              <Form.Item name="level" label={t('iot.thingModel.level')}>
                <Select
                  options={EVENT_LEVELS.map((value) => ({
                    value,
                    label: t(`iot.thingModel.levels.${value}`),
                  }))}
                />
              </Form.Item>
            ) : (
              <Form.Item
                name="timeoutSeconds"
                label={t('iot.thingModel.timeoutSeconds')}
                rules={[{ required: true, message: t('iot.thingModel.valueRequired') }]}
              >
                <InputNumber min={1} max={3600} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            )}
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
        </Row>
        <Form.Item name="params" label={t('iot.thingModel.params')}>
          <ParamsField />
        </Form.Item>
      </Form>
    </Modal>
  );
}
