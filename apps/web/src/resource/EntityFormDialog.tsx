import { TOAST_MS, type EntityDef } from '@shuili/contract';
import { Button, Col, Form, Modal, Row, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../lib/feedback';
import { reportFormError } from '../lib/form-errors';
import { FieldInput } from './FieldInput';
import { useLabel } from './field-label';
import { formFieldsOf, initialValuesOf, requestBodyOf, type FormMode } from './form-values';
import type { ResourceRow } from './resource-row';
import type { FixedFilters } from './search-params';
import { useFieldRules } from './use-field-rules';
import { useResourceMutations } from './use-resource';

// Spec §5: fields are checked as the user leaves them and as they type.
const VALIDATE_ON = ['onBlur', 'onChange'];
/** More fields than this: two columns. */
const ONE_COLUMN_MAX = 6;
const WIDE_KINDS = new Set(['textarea', 'richtext', 'refs', 'tags']);

/** What a form's extra content is given, to read or set the form's values. */
export interface FormExtraContext {
  mode: FormMode;
  row?: ResourceRow;
}

export interface EntityFormDialogProps {
  entity: EntityDef;
  /** Closed when undefined. */
  mode: FormMode | undefined;
  /** The record edited. */
  row?: ResourceRow;
  /** Starting values on create (a new child's parent). */
  preset?: Record<string, unknown>;
  /** Fields the screen fixes: not shown, sent on create. */
  fixedFilters?: FixedFilters;
  /** Extra content under the fields. */
  formExtra?: (context: FormExtraContext) => ReactNode;
  onClose: () => void;
  /** After a successful save, with the server's answer (add may return generated values). */
  onSaved?: (result: unknown, mode: FormMode) => void;
}

/** The create and edit dialog of an entity, built from its declared `form` fields. */
export function EntityFormDialog(props: EntityFormDialogProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const { entity, mode } = props;
  return (
    <Modal
      open={mode !== undefined}
      title={t(mode === 'edit' ? 'resource.editTitle' : 'resource.addTitle', {
        title: label(entity.title),
      })}
      onCancel={props.onClose}
      footer={null}
      destroyOnHidden
      maskClosable={false}
      width={formFieldsOf(entity, mode ?? 'create').length > ONE_COLUMN_MAX ? 820 : 560}
    >
      {mode && <EntityForm {...props} mode={mode} />}
    </Modal>
  );
}

function EntityForm({
  entity,
  mode,
  row,
  preset,
  fixedFilters,
  formExtra,
  onClose,
  onSaved,
}: EntityFormDialogProps & { mode: FormMode }) {
  const { t } = useTranslation();
  const label = useLabel();
  const rules = useFieldRules();
  const [form] = Form.useForm<Record<string, unknown>>();
  const mutations = useResourceMutations(entity);
  const [saving, setSaving] = useState(false);
  const fields = formFieldsOf(entity, mode, fixedFilters);
  const names = fields.map(([name]) => name);
  // Read once: the form owns its values from here on.
  const [initial] = useState(() => initialValuesOf(entity, mode, row, preset));
  const twoColumns = fields.length > ONE_COLUMN_MAX;
  const editingId = mode === 'edit' ? row?.id : undefined;

  const fieldItems = fields.map(([name, field]) => (
    <Col key={name} span={twoColumns && !WIDE_KINDS.has(field.kind) ? 12 : 24}>
      <Form.Item
        name={name}
        label={label(field.label)}
        rules={rules(field)}
        validateTrigger={VALIDATE_ON}
        validateFirst
        required={field.required}
      >
        <FieldInput field={field} editingId={entity.tree ? editingId : undefined} />
      </Form.Item>
    </Col>
  ));

  const save = async (values: Record<string, unknown>) => {
    const body = requestBodyOf(entity, mode, values, { row, initial, fixed: fixedFilters });
    if (mode === 'edit' && Object.keys(body).length <= 1) {
      // Nothing changed: nothing to send.
      onClose();
      return;
    }
    setSaving(true);
    try {
      const result =
        mode === 'create'
          ? await mutations.add.mutateAsync(body)
          : await mutations.update.mutateAsync(body);
      feedback.success(
        t(mode === 'create' ? 'resource.added' : 'resource.saved'),
        TOAST_MS.success / 1000,
      );
      onSaved?.(result, mode);
      onClose();
    } catch (error) {
      reportFormError(form, error, names);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      name={`form-${entity.name}`}
      layout="vertical"
      initialValues={initial}
      onFinish={(values) => void save(values)}
      data-testid="resource-form"
      data-entity={entity.name}
    >
      <Row gutter={16}>{fieldItems}</Row>
      {formExtra?.({ mode, row })}
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
