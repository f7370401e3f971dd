import { PROCESSORS, type ProcessorParam, type ProcessorType } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';
import { useLabel } from '../../resource/field-label';
import type { ResourceRow } from '../../resource/resource-row';

/** The form holds the processor's parameters under this name; saving turns them into jobParams. */
export const PARAMS_FIELD = 'params';
/** How many records a reference parameter offers. */
const REF_OPTIONS = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/** The checks the server makes (parseProcessorParams), as the user types. */
function useParamRules(): (param: ProcessorParam, name: string) => Rule[] {
  const { t } = useTranslation();
  return (param, name) => {
    const rules: Rule[] = [];
    if (param.required)
      // A check of its own: a typed `required` rule would also check the value's type (a
      // number is no string), naming the parameter required when it is filled.
      rules.push({
        required: true,
        validator: async (_rule, value: unknown) => {
          const empty =
            value === undefined ||
            value === null ||
            (typeof value === 'string' && value.trim() === '') ||
            (Array.isArray(value) && value.length === 0);
          if (empty) throw new Error(t('validation.required', { field: name }));
        },
      });
    if (param.kind === 'emails')
      rules.push({
        validator: async (_rule, value: unknown) => {
          const list = Array.isArray(value) ? (value as string[]) : [];
          const bad = list.find((item) => !EMAIL.test(item.trim()));
          if (bad) throw new Error(t('jobs.form.badEmail', { value: bad }));
          if (param.max && list.length > param.max)
            throw new Error(t('jobs.form.tooMany', { field: name, max: param.max }));
        },
      });
    if (param.kind === 'url')
      rules.push({
        validator: async (_rule, value: unknown) => {
          const text = typeof value === 'string' ? value.trim() : '';
          if (text && !(/^https?:\/\//i.test(text) && URL.canParse(text)))
            throw new Error(t('jobs.form.badUrl', { field: name }));
        },
      });
    if (param.kind === 'json')
      rules.push({
        validator: async (_rule, value: unknown) => {
          const text = typeof value === 'string' ? value.trim() : '';
          if (!text) return;
          try {
            JSON.parse(text);
          } catch {
            throw new Error(t('jobs.form.badJson', { field: name }));
          }
        },
      });
    return rules;
  };
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
