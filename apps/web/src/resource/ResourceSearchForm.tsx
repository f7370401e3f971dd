import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { DATE_FORMAT, type EntityDef, type FieldDef } from '@shuili/contract';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DictSelect } from './DictSelect';
import { useLabel } from './field-label';
import { RefSelect } from './RefSelect';
import { searchFieldsOf, type FixedFilters } from './search-params';
import { TreeRefSelect } from './TreeRefSelect';
import { useDict } from './use-resource';

/** Fields shown while the form is collapsed. */
const COLLAPSED_FIELDS = 3;
const COLUMN = { xs: 24, sm: 12, md: 8, xl: 6 } as const;
const HIDDEN = { display: 'none' } as const;

function SearchControl({ field, ...control }: { field: FieldDef; id?: string }) {
  const { t } = useTranslation();
  const label = useLabel();
  if (field.search === 'range') {
    return (
      <DatePicker.RangePicker
        {...control}
        showTime
        format={DATE_FORMAT}
        style={{ width: '100%' }}
        placeholder={[t('resource.rangeFrom'), t('resource.rangeTo')]}
      />
    );
  }
  if (field.search === 'in') return <InListSelect field={field} {...control} />;
  switch (field.kind) {
    case 'select':
    case 'tags':
      return (
        <Select
          {...control}
          allowClear
          options={field.options?.map((option) => ({
            value: option.value,
            label: label(option.label),
          }))}
        />
      );
    case 'dict':
      return <DictSelect {...control} dictType={field.dictType ?? ''} allowClear />;
    case 'status':
      return (
        <Select
          {...control}
          allowClear
          options={[
            { value: 1, label: t('resource.enabled') },
            { value: 0, label: t('resource.disabled') },
          ]}
        />
      );
    case 'switch':
      return (
        <Select
          {...control}
          allowClear
          options={[
            { value: true, label: t('resource.yes') },
            { value: false, label: t('resource.no') },
          ]}
        />
      );
    case 'ref':
    case 'refs': {
      const target = field.ref ?? field.link;
      return target ? <RefSelect {...control} target={target} allowClear /> : null;
    }
    case 'tree-ref':
      return field.ref?.treeCall ? (
        <TreeRefSelect
          {...control}
          target={{ ...field.ref, treeCall: field.ref.treeCall }}
          allowClear
        />
      ) : null;
    case 'number':
      return <InputNumber {...control} style={{ width: '100%' }} />;
    default:
      return <Input {...control} allowClear />;
  }
}

/** Several values of an `in` filter: the field's options or its dictionary's entries. */
function InListSelect({ field, ...control }: { field: FieldDef; id?: string }) {
  const label = useLabel();
  const dict = useDict(field.dictType);
  const options = field.options
    ? field.options.map((option) => ({ value: option.value, label: label(option.label) }))
    : (dict.data ?? []).map((entry) => ({ value: entry.dictValue, label: entry.dictName }));
  return (
    <Select
      {...control}
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      loading={dict.isLoading}
      showSearch={{ optionFilterProp: 'label' }}
      options={options}
    />
  );
}

export interface ResourceSearchFormProps {
  entity: EntityDef;
  fixedFilters?: FixedFilters;
  /** Fields the caller may not see (data permissions): filtering on them would do nothing. */
  hiddenFields?: ReadonlySet<string>;
  /** The form's values on search; reset searches with none. */
  onSearch: (values: Record<string, unknown>) => void;
}

/** The list's search form, one control per declared `search` field; collapsible when long. */
export function ResourceSearchForm({
  entity,
  fixedFilters,
  hiddenFields,
  onSearch,
}: ResourceSearchFormProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [expanded, setExpanded] = useState(false);
  const fields = searchFieldsOf(entity, fixedFilters).filter(([name]) => !hiddenFields?.has(name));
  if (fields.length === 0) return null;
  const collapsible = fields.length > COLLAPSED_FIELDS;

  return (
    <Form
      form={form}
      name={`search-${entity.name}`}
      layout="vertical"
      onFinish={(values) => onSearch(values)}
      data-testid="resource-search"
    >
      <Row gutter={16} align="bottom">
        {fields.map(([name, field], index) => (
          <Col
            {...(field.search === 'range' ? { xs: 24, sm: 24, md: 16, xl: 12 } : COLUMN)}
            key={name}
            // Kept mounted (their values stay), only out of sight.
            style={collapsible && !expanded && index >= COLLAPSED_FIELDS ? HIDDEN : undefined}
          >
            <Form.Item name={name} label={label(field.label)}>
              <SearchControl field={field} />
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto">
          <Form.Item>
            <Space wrap style={{ width: '100%', justifyContent: 'flex-end' }}>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SearchOutlined />}
                data-testid="resource-search-submit"
              >
                {t('resource.search')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  onSearch({});
                }}
                data-testid="resource-search-reset"
              >
                {t('resource.reset')}
              </Button>
              {collapsible && (
                <Button
                  type="link"
                  onClick={() => setExpanded((value) => !value)}
                  icon={expanded ? <UpOutlined /> : <DownOutlined />}
                  iconPlacement="end"
                >
                  {t(expanded ? 'resource.collapse' : 'resource.expand')}
                </Button>
              )}
            </Space>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
