import { TOAST_MS, type EntityDef, type FieldDef } from '@shuili/contract';
import { Button, Col, Form, Modal, Row, Space, type ButtonProps } from 'antd';
import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../lib/feedback';
import { reportFormError } from '../lib/form-errors';
import { FieldInput } from './FieldInput';
import { useLabel } from './field-label';
import {
  changedFieldsOf,
  formFieldsOf,
  initialValuesOf,
  requestBodyOf,
  type FormMode,
} from './form-values';
import type { ResourceRow } from './resource-row';
import type { FixedFilters } from './search-params';
import { useFieldRules } from './use-field-rules';
import { useResourceMutations } from './use-resource';

// Spec §5: fields are checked as the user leaves them and as they type.
const VALIDATE_ON = ['onBlur', 'onChange'];
/** More fields than this: two columns. */
const ONE_COLUMN_MAX = 6;
const WIDE_KINDS = new Set(['textarea', 'richtext', 'refs', 'tags']);
/** Room the dialog leaves above and below its fields, so its buttons stay on screen. */
const DIALOG_CHROME_PX = 220;

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
  /** Controls the screen puts in place of named fields' generic ones (Form.Item feeds them). */
  fieldControls?: Readonly<Record<string, ReactElement>>;
  /** Fields that do not apply to the values as they stand: not shown, cleared when saved. */
  hiddenFields?: (values: Record<string, unknown>) => readonly string[];
  onClose: () => void;
  /** After a successful save, with the server's answer (add may return generated values). */
  onSaved?: (result: unknown, mode: FormMode) => void;
}

/**
 * The create and edit dialog of an entity, built from its declared `form` fields. Esc, the
 * close button or a click outside close it at once when nothing changed, and ask first when
 * something did (the Cancel button is the explicit way out).
 */
export function EntityFormDialog(props: EntityFormDialogProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const [modal, modalHolder] = Modal.useModal();
  const { entity, mode, onClose } = props;
  // The open form tells whether it holds changes; the dialog asks before losing them.
  const changedRef = useRef<() => boolean>(() => false);
  const asking = useRef(false);

  const dismiss = () => {
    if (!changedRef.current()) {
      onClose();
      return;
    }
    if (asking.current) return;
    asking.current = true;
    void modal.confirm({
      title: t('resource.discard.title'),
      content: t('resource.discard.content'),
      okText: t('resource.discard.ok'),
      okButtonProps: { danger: true, 'data-testid': 'resource-discard' } as ButtonProps,
      cancelText: t('resource.discard.keep'),
      cancelButtonProps: { 'data-testid': 'resource-keep-editing' } as ButtonProps,
      onOk: onClose,
      afterClose: () => {
        asking.current = false;
      },
    });
  };

  return (
    <Modal
      open={mode !== undefined}
      title={t(mode === 'edit' ? 'resource.editTitle' : 'resource.addTitle', {
        title: label(entity.title),
      })}
      onCancel={dismiss}
      footer={null}
      destroyOnHidden
      centered
      width={formFieldsOf(entity, mode ?? 'create').length > ONE_COLUMN_MAX ? 820 : 560}
    >
      {modalHolder}
      {mode && <EntityForm {...props} mode={mode} changedRef={changedRef} />}
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
  fieldControls,
  hiddenFields,
  onClose,
  onSaved,
  changedRef,
}: EntityFormDialogProps & { mode: FormMode; changedRef: { current: () => boolean } }) {
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
  // Fields appear and go as others change (an alarm rule's thresholds follow its condition);
  // the form re-renders only when that set changes, not on every keystroke.
  const hiddenList = Form.useWatch(
    (values: Record<string, unknown>) => hiddenFields?.({ ...initial, ...values }).join(',') ?? '',
    { form, preserve: true },
  );
  const hidden = new Set((hiddenList ?? hiddenFields?.(initial).join(',') ?? '').split(','));
  useEffect(() => {
    changedRef.current = () =>
      changedFieldsOf(entity, mode, form.getFieldsValue(true), initial, fixedFilters).length > 0;
    return () => {
      changedRef.current = () => false;
    };
  }, [changedRef, entity, mode, form, initial, fixedFilters]);

  // A stored value never answered (a household's ID number) starts empty on edit: empty keeps
  // it, so it is not required there.
  const kept = (field: FieldDef) => mode === 'edit' && field.writeOnly === true;
  const fieldItems = fields
    .filter(([name]) => !hidden.has(name))
    .map(([name, field]) => (
      // Two columns on a wide screen, one on a phone.
      <Col key={name} xs={24} md={twoColumns && !WIDE_KINDS.has(field.kind) ? 12 : 24}>
        <Form.Item
          name={name}
          label={label(field.label)}
          rules={rules(kept(field) ? { ...field, required: false } : field)}
          validateTrigger={VALIDATE_ON}
          validateFirst
          required={field.required && !kept(field)}
          extra={kept(field) ? t('resource.writeOnlyKept') : undefined}
        >
          {fieldControls?.[name] ?? (
            <FieldInput field={field} editingId={entity.tree ? editingId : undefined} />
          )}
        </Form.Item>
      </Col>
    ));

  const save = async (shown: Record<string, unknown>) => {
    // Hidden fields are sent empty: a value that no longer applies is not kept.
    const values = { ...form.getFieldsValue(true), ...shown };
    for (const name of hidden) values[name] = null;
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
      {/* The fields scroll inside the dialog; its buttons stay on screen. */}
      <div
        style={{
          maxHeight: `calc(100vh - ${DIALOG_CHROME_PX}px)`,
          overflowX: 'hidden',
          overflowY: 'auto',
        }}
        data-testid="resource-form-body"
      >
        <Row gutter={16}>{fieldItems}</Row>
        {formExtra?.({ mode, row })}
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
