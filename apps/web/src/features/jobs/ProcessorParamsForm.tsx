import { PROCESSORS, type ProcessorParam, type ProcessorType } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';
import { useLabel } from '../../resource/field-label';
import { useTranslate } from '../../resource/use-field-rules';
import { paramProblem } from './job-params';
import type { ResourceRow } from '../../resource/resource-row';

/** The form holds the processor's parameters under this name; saving turns them into jobParams. */
export const PARAMS_FIELD = 'params';
/** How many records a reference parameter offers. */
const REF_OPTIONS = 100;

/** A select of the records a `ref` parameter names (a rotation schedule), by id. */
function ParamRefSelect({
  param,
  ...control
}: {
  param: ProcessorParam;
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const ref = param.ref!;
  const rows = useQuery({
    queryKey: ['jobs', 'param-ref', ref.queryCall],
    queryFn: ({ signal }) =>
      http.get<{ list: ResourceRow[] }>(ref.queryCall, {
        params: { currentPage: 1, pageSize: REF_OPTIONS },
        signal,
      }),
  });
  return (
    <Select
      {...control}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={!param.required}
      loading={rows.isFetching}
      placeholder={t('jobs.form.choose')}
      options={(rows.data?.list ?? []).map((row) => ({
        value: String(row.id),
        label: String(row[ref.labelField] ?? row.id),
      }))}
    />
  );
}

function ParamControl({ param, ...control }: { param: ProcessorParam; id?: string }) {
  const { t } = useTranslation();
  const label = useLabel();
  switch (param.kind) {
    case 'int':
      return (
        <InputNumber
          {...control}
          min={param.min}
          max={param.max}
          precision={0}
          style={{ width: '100%' }}
        />
      );
    case 'enum':
      return (
        <Select
          {...control}
          allowClear={!param.required}
          options={(param.options ?? []).map((option) => ({
            value: option.value,
            label: label(option.label),
          }))}
        />
      );
    case 'bool':
      return <Switch {...control} />;
    case 'emails':
      return (
        <Select
          {...control}
          mode="tags"
          tokenSeparators={[',', ';', ' ']}
          open={false}
          placeholder={t('jobs.form.emailsPlaceholder')}
        />
      );
    case 'url':
      return (
        <Input {...control} maxLength={param.max} placeholder={t('jobs.form.urlPlaceholder')} />
      );
    case 'json':
      return (
        <Input.TextArea
          {...control}
          rows={4}
          maxLength={param.max}
          style={{ fontFamily: 'monospace' }}
        />
      );
    case 'ref':
      return <ParamRefSelect {...control} param={param} />;
    case 'text':
      return <Input {...control} maxLength={param.max} />;
  }
}

/** The checks the server makes (parseProcessorParams), as the user types (paramProblem). */
function useParamRules(): (param: ProcessorParam, name: string) => Rule[] {
  const translate = useTranslate();
  return (param, name) => [
    {
      required: param.required,
      validator: async (_rule, value: unknown) => {
        const problem = paramProblem(param, value);
        if (problem) throw new Error(translate(problem.key, { field: name, ...problem.values }));
      },
    },
  ];
}

/**
 * The chosen processor's parameters as a form (PROCESSORS[type].params): each kind its control,
 * held under `params.<name>` and saved as the job's jobParams JSON (job-params.ts).
 */
export function ProcessorParamsForm({ type }: { type: ProcessorType | undefined }) {
  const { t } = useTranslation();
  const label = useLabel();
  const rules = useParamRules();
  if (!type) return null;
  const params = PROCESSORS[type].params;
  if (params.length === 0) return null;
  return (
    <Row gutter={16} data-testid="job-params-form" data-processor={type}>
      {params.map((param) => {
        const name = label(param.label);
        const wide = param.kind === 'json' || param.kind === 'emails' || param.kind === 'url';
        return (
          <Col key={param.name} xs={24} md={wide ? 24 : 12} data-testid={`job-param-${param.name}`}>
            <Form.Item
              name={[PARAMS_FIELD, param.name]}
              label={name}
              required={param.required}
              rules={rules(param, name)}
              valuePropName={param.kind === 'bool' ? 'checked' : 'value'}
              extra={
                param.kind === 'int' && param.min !== undefined && param.max !== undefined
                  ? t('jobs.form.range', { min: param.min, max: param.max })
                  : undefined
              }
            >
              <ParamControl param={param} />
            </Form.Item>
          </Col>
        );
      })}
    </Row>
  );
}
