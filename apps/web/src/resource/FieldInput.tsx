import { DATE_FORMAT, PASSWORD_INPUT_MAX, type FieldDef } from '@shuili/contract';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DictSelect } from './DictSelect';
import { useLabel } from './field-label';
import { IconPicker } from './IconPicker';
import { RefSelect } from './RefSelect';
import { TreeRefSelect } from './TreeRefSelect';

/** Holds an enabled (1) / disabled (0) status as a switch. */
export function StatusSwitch({
  value,
  onChange,
  id,
  disabled,
}: {
  value?: number | null;
  onChange?: (value: number) => void;
  id?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Switch
      id={id}
      disabled={disabled}
      checked={Number(value) === 1}
      onChange={(checked) => onChange?.(checked ? 1 : 0)}
      checkedChildren={t('resource.enabled')}
      unCheckedChildren={t('resource.disabled')}
    />
  );
}

export interface FieldInputProps {
  field: FieldDef;
  /** The record being edited: it may not become its own parent. */
  editingId?: string;
  // Form.Item passes these.
  id?: string;
  value?: never;
  onChange?: never;
}

/**
 * The form control of one declared field, by its kind (DESIGN §3). Form.Item injects value and
 * onChange; every control here takes what the form holds (see form-values.ts).
 */
export function FieldInput({ field, editingId, ...control }: FieldInputProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const optional = !field.required;
  const options = field.options?.map((option) => ({
    value: option.value,
    label: label(option.label),
  }));

  if (field.targetsBy) return <DependentRefs {...control} targetsBy={field.targetsBy} />;
  switch (field.kind) {
    case 'textarea':
    case 'richtext':
      return (
        <Input.TextArea
          {...control}
          autoSize={{ minRows: field.kind === 'richtext' ? 6 : 3, maxRows: 16 }}
        />
      );
    case 'number':
      return (
        <InputNumber
          {...control}
          // No min, max or precision here: antd would silently clamp or round what was typed
          // (latitude 200 to 90); the field's rules show it as an error instead.
          step={field.sql === 'double precision' ? 10 ** -Math.min(field.precision ?? 0, 2) : 1}
          style={{ width: '100%' }}
        />
      );
    case 'select':
      return <Select {...control} allowClear={optional} options={options} />;
    case 'dict':
      return <DictSelect {...control} dictType={field.dictType ?? ''} allowClear={optional} />;
    case 'ref':
      return field.ref ? (
        <RefSelect
          {...control}
          target={field.ref}
          allowClear={optional}
          excludeId={editingId}
          placeholder={t('resource.typeToSearch')}
        />
      ) : null;
    case 'tree-ref':
      return field.ref?.treeCall ? (
        <TreeRefSelect
          {...control}
          target={{ ...field.ref, treeCall: field.ref.treeCall }}
          allowClear={optional}
          excludeId={editingId}
        />
      ) : null;
    case 'refs':
      return field.link ? (
        <RefSelect
          {...control}
          target={field.link}
          multiple
          allowClear
          placeholder={t('resource.typeToSearch')}
        />
      ) : null;
    case 'switch':
      return <BooleanSwitch {...control} />;
    case 'status':
      return <StatusSwitch {...control} />;
    case 'password':
      return (
        <Input.Password
          {...control}
          autoComplete="new-password"
          maxLength={field.max ?? PASSWORD_INPUT_MAX}
        />
      );
    case 'datetime':
      return <DatePicker {...control} showTime format={DATE_FORMAT} style={{ width: '100%' }} />;
    case 'icon':
      return <IconPicker {...control} />;
    case 'tags':
      return (
        <Select
          {...control}
          mode={options ? 'multiple' : 'tags'}
          options={options}
          allowClear
          tokenSeparators={options ? undefined : [',', ' ']}
          open={options ? undefined : false}
          suffixIcon={options ? undefined : null}
        />
      );
    default:
      return <Input {...control} allowClear={optional} />;
  }
}

function BooleanSwitch({
  value,
  onChange,
  id,
}: {
  value?: boolean | null;
  onChange?: (value: boolean) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <Switch
      id={id}
      checked={value === true}
      onChange={(checked) => onChange?.(checked)}
      checkedChildren={t('resource.yes')}
      unCheckedChildren={t('resource.no')}
    />
  );
}

/**
 * Ids of the table another field of the form names (a notification's recipients: roles,
 * organisations or users by its scope); nothing to choose while that field names none.
 */
function DependentRefs({
  targetsBy,
  ...control
}: { targetsBy: NonNullable<FieldDef['targetsBy']> } & Omit<FieldInputProps, 'field'>) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const scope = Form.useWatch(targetsBy.field, form) as string | undefined;
  const target = scope ? targetsBy.targets[scope] : undefined;
  if (!target)
    return <Select id={control.id} disabled placeholder={t('resource.noChoiceNeeded')} />;
  return (
    <RefSelect
      key={scope}
      {...control}
      target={target}
      multiple
      allowClear
      placeholder={t('resource.typeToSearch')}
    />
  );
}
