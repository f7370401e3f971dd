import type { ThingCommand, ThingEvent, ThingParam } from '@shuili/contract';
import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from './FormDialog';
import { KeyField, NameFields } from './IdentityFields';
import type { RowDialogProps } from './ListTable';
import { ParamTable } from './ParamTable';

export type Entry = ThingEvent | ThingCommand;
export type EntryKind = 'event' | 'command';

export interface EntryDialogProps extends RowDialogProps<Entry> {
  kind: EntryKind;
}

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

/** The entry as stored: trimmed key, parameters, and a command's live value only when given. */
function cleanEntry(values: Entry): Entry {
  const { property, ...rest } = values as ThingCommand;
  const target = property?.trim();
  return {
    ...rest,
    key: values.key.trim(),
    params: values.params ?? [],
    ...(target ? { property: target } : {}),
  } as Entry;
}

/** Edits one event (key, name, level, parameters) or command (key, name, timeout, parameters). */
export function EntryDialog(props: EntryDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Entry>();
  const { siblings, index, kind } = props;
  const defaults =
    kind === 'event' ? { level: 'info', params: [] } : { timeoutSeconds: 30, params: [] };

  return (
    <FormDialog<Entry>
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
      width={900}
      form={form}
      initialValues={{ ...defaults, ...props.value }}
      testId="entry-dialog"
      onApply={(values) => props.onSave(cleanEntry(values))}
      onClose={props.onClose}
    >
      <Row gutter={12}>
        <KeyField siblings={siblings} index={index} />
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
        <NameFields />
        {kind === 'command' && (
          <Col span={24}>
            {/* Puts the command beside that live value on the device page (tile-actions.ts). */}
            <Form.Item
              name="property"
              label={t('iot.thingModel.commandProperty')}
              extra={t('iot.thingModel.commandPropertyHint')}
            >
              <Input
                maxLength={80}
                allowClear
                placeholder={t('iot.thingModel.commandPropertyPlaceholder')}
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Form.Item name="params" label={t('iot.thingModel.params')}>
        <ParamsField />
      </Form.Item>
    </FormDialog>
  );
}
