import {
  cronProblem,
  EXECUTE_TYPE_OPTIONS,
  jobInfoEntity,
  PROCESSOR_TYPE_OPTIONS,
  PROCESSORS,
  TIME_EXPRESSION_TYPE_OPTIONS,
  TIMED_EXPRESSION_TYPES,
  TOAST_MS,
  type ProcessorType,
  type TimeExpressionType,
} from '@shuili/contract';
import {
  Button,
  Col,
  Divider,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Space,
  type ButtonProps,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import { FieldInput } from '../../resource/FieldInput';
import { useLabel } from '../../resource/field-label';
import {
  changedFieldsOf,
  initialValuesOf,
  requestBodyOf,
  type FormMode,
} from '../../resource/form-values';
import type { ResourceRow } from '../../resource/resource-row';
import type { Translate } from '../../resource/field-rules';
import { useFieldRules, useTranslate } from '../../resource/use-field-rules';
import { useResourceMutations } from '../../resource/use-resource';
import { CronHelp } from './CronHelp';
import { jobParamsOf, paramValuesOf, type ParamValues } from './job-params';
import { NextTriggerTimes } from './NextTriggerTimes';
import { PARAMS_FIELD, ProcessorParamsForm } from './ProcessorParamsForm';

const VALIDATE_ON = ['onBlur', 'onChange'];
const FIELDS = jobInfoEntity.fields;
const LIMITS = [
  'maxInstanceNum',
  'threadConcurrency',
  'maxWorkerNum',
  'timeout',
  'retries',
  'minCpuCores',
  'minMemoryGb',
  'minDiskGb',
] as const;
/** The entity's fields this form shows as fields of their own (the parameters are jobParams). */
const SHOWN_FIELDS: readonly string[] = [
  'jobName',
  'jobDescription',
  'timeExpressionType',
  'processorType',
  'executeType',
  ...LIMITS,
  'alarmUserIds',
  'status',
];
/** The fixed rate or delay the scheduler takes (as the server checks it): a second to a year. */
const MIN_FIXED_MS = 1000;
const MAX_FIXED_MS = 366 * 86_400_000;
/** Room the dialog leaves above and below its fields, so its buttons stay on screen. */
const DIALOG_CHROME_PX = 220;

const isTimed = (type: unknown) => TIMED_EXPRESSION_TYPES.includes(type as TimeExpressionType);

export interface JobFormDialogProps {
  /** Closed when undefined. */
  mode: FormMode | undefined;
  row?: ResourceRow;
  onClose: () => void;
  onSaved?: () => void;
}

/**
 * The job form (spec §3, §5): basic info, schedule (with the next five trigger times as the user
 * types), execute config (the processor's own parameter form), limits and alarm users. Saves
 * through the entity's generic add and update calls, the parameters as the jobParams JSON.
 */
export function JobFormDialog({ mode, row, onClose, onSaved }: JobFormDialogProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const [modal, modalHolder] = Modal.useModal();
  // The open form tells whether it holds changes; the dialog asks before losing them.
  const changedRef = useRef<() => boolean>(() => false);

  const dismiss = () => {
    if (!changedRef.current()) {
      onClose();
      return;
    }
    void modal.confirm({
      title: t('resource.discard.title'),
      content: t('resource.discard.content'),
      okText: t('resource.discard.ok'),
      okButtonProps: { danger: true, 'data-testid': 'resource-discard' } as ButtonProps,
      cancelText: t('resource.discard.keep'),
      onOk: onClose,
    });
  };

  return (
    <Modal
      open={mode !== undefined}
      title={t(mode === 'edit' ? 'resource.editTitle' : 'resource.addTitle', {
        title: label(jobInfoEntity.title),
      })}
      onCancel={dismiss}
      footer={null}
      destroyOnHidden
      centered
      width={880}
    >
      {modalHolder}
      {mode && (
        <JobForm
          mode={mode}
          row={row}
          onClose={onClose}
          onSaved={onSaved}
          changedRef={changedRef}
        />
      )}
    </Modal>
  );
}

function JobForm({
  mode,
  row,
  onClose,
  onSaved,
  changedRef,
}: JobFormDialogProps & { mode: FormMode; changedRef: { current: () => boolean } }) {
  const { t } = useTranslation();
  const label = useLabel();
  const fieldRules = useFieldRules();
  const translate = useTranslate();
  const [form] = Form.useForm<Record<string, unknown>>();
  const mutations = useResourceMutations(jobInfoEntity);
  const [saving, setSaving] = useState(false);
  const [initial] = useState(() => {
    const values = initialValuesOf(jobInfoEntity, mode, row);
    return {
      ...values,
      [PARAMS_FIELD]: paramValuesOf(
        values.processorType as ProcessorType,
        row?.jobParams as string,
      ),
    };
  });
  useEffect(() => {
    changedRef.current = () =>
      changedFieldsOf(
        jobInfoEntity,
        mode,
        valuesToSave(form.getFieldsValue(true)),
        valuesToSave(initial),
      ).length > 0;
    return () => {
      changedRef.current = () => false;
    };
  }, [changedRef, form, mode, initial]);

  const timeType = Form.useWatch('timeExpressionType', form) as string | undefined;
  const expression = (Form.useWatch('timeExpression', form) as string | undefined) ?? '';
  const processor = Form.useWatch('processorType', form) as ProcessorType | undefined;
  const supported = processor ? PROCESSORS[processor].executeTypes : undefined;

  const item = (name: keyof typeof FIELDS, wide = false) => {
    const field = FIELDS[name]!;
    return (
      <Col key={name} xs={24} md={wide ? 24 : 12}>
        <Form.Item
          name={name}
          label={label(field.label)}
          rules={fieldRules(field)}
          validateTrigger={VALIDATE_ON}
          validateFirst
          required={field.required}
        >
          <FieldInput field={field} />
        </Form.Item>
      </Col>
    );
  };

  // The type is read when the check runs: a change of type checks the expression again.
  const expressionRules: Rule[] = [
    ({ getFieldValue }) => ({
      validator: async (_rule, value: unknown) => {
        const type = getFieldValue('timeExpressionType') as string | undefined;
        const text = typeof value === 'string' ? value.trim() : '';
        if (type === 'CRON') {
          if (!text) throw new Error(t('jobs.form.cronRequired'));
          const problem = cronProblem(text);
          if (problem) throw new Error(cronProblemText(problem, translate));
        } else if (isTimed(type)) {
          if (!text) throw new Error(t('jobs.form.fixedRequired'));
          if (!/^\d+$/.test(text) || Number(text) < MIN_FIXED_MS || Number(text) > MAX_FIXED_MS)
            throw new Error(t('jobs.form.fixedInvalid', { min: MIN_FIXED_MS, max: MAX_FIXED_MS }));
        }
      },
    }),
  ];

  const onProcessorChange = (next: ProcessorType) => {
    // The new processor's own parameters, from its defaults; an execute type it cannot run as
    // becomes its first.
    form.setFieldValue(PARAMS_FIELD, paramValuesOf(next, undefined));
    const executeTypes = PROCESSORS[next].executeTypes;
    if (!executeTypes.includes(form.getFieldValue('executeType') as never))
      form.setFieldValue('executeType', executeTypes[0]);
  };

  const save = async () => {
    const body = requestBodyOf(jobInfoEntity, mode, valuesToSave(form.getFieldsValue(true)), {
      row,
      initial: valuesToSave(initial),
    });
    if (mode === 'edit' && Object.keys(body).length <= 1) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      if (mode === 'create') await mutations.add.mutateAsync(body);
      else await mutations.update.mutateAsync(body);
      feedback.success(
        t(mode === 'create' ? 'resource.added' : 'resource.saved'),
        TOAST_MS.success / 1000,
      );
      onSaved?.();
      onClose();
    } catch (error) {
      // Errors of fields the form shows go beside them; the rest (the parameters' JSON) in a toast.
      const shown = [...SHOWN_FIELDS, ...(isTimed(timeType) ? ['timeExpression'] : [])];
      reportFormError(form, error, shown);
    } finally {
      setSaving(false);
    }
  };

  const section = (key: 'basic' | 'schedule' | 'execute' | 'limits' | 'alarm') => (
    <Divider titlePlacement="start" plain data-testid={`job-section-${key}`}>
      {t(`jobs.form.sections.${key}`)}
    </Divider>
  );

  return (
    <Form
      form={form}
      name="form-JobInfo"
      layout="vertical"
      initialValues={initial}
      onFinish={() => void save()}
      data-testid="resource-form"
      data-entity="JobInfo"
    >
      <div
        style={{
          maxHeight: `calc(100vh - ${DIALOG_CHROME_PX}px)`,
          overflowX: 'hidden',
          overflowY: 'auto',
        }}
        data-testid="resource-form-body"
      >
        {section('basic')}
        <Row gutter={16}>
          {item('jobName', true)}
          {item('jobDescription', true)}
        </Row>

        {section('schedule')}
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="timeExpressionType"
              label={label(FIELDS.timeExpressionType!.label)}
              rules={[{ required: true, message: t('jobs.form.typeRequired') }]}
              required
            >
              <Select
                data-testid="job-time-type"
                options={TIME_EXPRESSION_TYPE_OPTIONS.map((option) => ({
                  value: option.value,
                  label: label(option.label),
                }))}
                onChange={() => void form.validateFields(['timeExpression']).catch(() => undefined)}
              />
            </Form.Item>
          </Col>
          {isTimed(timeType) && (
            <Col xs={24} md={16}>
              <Form.Item
                name="timeExpression"
                label={
                  <Space size={6}>
                    {label(FIELDS.timeExpression!.label)}
                    {timeType === 'CRON' && (
                      <CronHelp
                        onPick={(picked) => {
                          form.setFieldValue('timeExpression', picked);
                          void form.validateFields(['timeExpression']).catch(() => undefined);
                        }}
                      />
                    )}
                  </Space>
                }
                required
                rules={expressionRules}
                validateTrigger={VALIDATE_ON}
                dependencies={['timeExpressionType']}
                extra={timeType === 'CRON' ? t('jobs.form.cronExtra') : t('jobs.form.fixedExtra')}
              >
                <Input
                  data-testid="job-time-expression"
                  maxLength={200}
                  style={{ fontFamily: 'monospace' }}
                  placeholder={timeType === 'CRON' ? '0 0 2 * * ?' : '60000'}
                  suffix={timeType === 'CRON' ? undefined : t('jobs.form.ms')}
                />
              </Form.Item>
            </Col>
          )}
        </Row>
        {timeType && !isTimed(timeType) && (
          <p data-testid="job-no-expression">
            {t(timeType === 'WORKFLOW' ? 'jobs.form.workflowOnly' : 'jobs.form.apiOnly')}
          </p>
        )}
        {isTimed(timeType) && (
          <NextTriggerTimes timeExpressionType={timeType!} timeExpression={expression} />
        )}

        {section('execute')}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="processorType"
              label={label(FIELDS.processorType!.label)}
              rules={[{ required: true, message: t('jobs.form.processorRequired') }]}
              required
              extra={processor ? label(PROCESSORS[processor].description) : undefined}
            >
              <Select
                data-testid="job-processor"
                options={PROCESSOR_TYPE_OPTIONS.map((option) => ({
                  value: option.value,
                  label: label(option.label),
                }))}
                onChange={onProcessorChange}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="executeType"
              label={label(FIELDS.executeType!.label)}
              rules={[{ required: true, message: t('jobs.form.executeRequired') }]}
              required
            >
              <Select
                data-testid="job-execute-type"
                options={EXECUTE_TYPE_OPTIONS.filter(
                  (option) => !supported || supported.includes(option.value as never),
                ).map((option) => ({ value: option.value, label: label(option.label) }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <ProcessorParamsForm type={processor} />

        {section('limits')}
        <Row gutter={16}>{LIMITS.map((name) => item(name))}</Row>

        {section('alarm')}
        <Row gutter={16}>
          {item('alarmUserIds', true)}
          {item('status')}
        </Row>
      </div>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{t('resource.cancel')}</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={saving}
          disabled={saving}
          data-testid="resource-form-submit"
        >
          {t('resource.save')}
        </Button>
      </Space>
    </Form>
  );
}

/**
 * The form's values as the entity's add and update take them: the parameters as jobParams, no
 * time expression where the type needs none.
 */
function valuesToSave(values: Record<string, unknown>): Record<string, unknown> {
  const { [PARAMS_FIELD]: params, ...rest } = values;
  const type = rest.processorType as ProcessorType | undefined;
  return {
    ...rest,
    jobParams: type ? jobParamsOf(type, params as ParamValues) : null,
    timeExpression: isTimed(rest.timeExpressionType) ? rest.timeExpression : null,
  };
}

/** A CRON problem in the reader's language: what is wrong, and in which field. */
function cronProblemText(
  problem: NonNullable<ReturnType<typeof cronProblem>>,
  t: Translate,
): string {
  switch (problem.code) {
    case 'fields':
      return t('jobs.cron.fields');
    case 'questionMark':
      return t('jobs.cron.questionMark');
    case 'never':
      return t('jobs.cron.never');
    case 'syntax':
      return problem.field
        ? t('jobs.cron.badField', { field: t(`jobs.cron.field.${problem.field}`) })
        : t('jobs.cron.syntax');
  }
}
