import { Form, Modal, type FormInstance, type FormProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormDialogProps<V> {
  open: boolean;
  title: string;
  width: number;
  /** The caller's form, so it can watch fields and fill some from others. */
  form: FormInstance<V>;
  initialValues: FormProps<V>['initialValues'];
  testId: string;
  /** The apply button's test id, where a browser test presses it. */
  okTestId?: string;
  /** Called with the validated values; the dialog stays open while a field is wrong. */
  onApply: (values: V) => void;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal around one vertical form, as the thing-model dialogs edit a row. Applying only changes
 * the draft (the page saves the whole model), hence "apply" rather than "save"; a click beside
 * the modal does not close it, so a half-typed row is not lost.
 */
export function FormDialog<V>(props: FormDialogProps<V>) {
  const { t } = useTranslation();
  const apply = async () => props.onApply(await props.form.validateFields());
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      onOk={() => void apply()}
      okText={t('iot.thingModel.apply')}
      cancelText={t('iot.cancel')}
      destroyOnHidden
      maskClosable={false}
      width={props.width}
      okButtonProps={
        props.okTestId === undefined
          ? undefined
          : ({ 'data-testid': props.okTestId } as Record<string, string>)
      }
    >
      <Form<V>
        form={props.form}
        layout="vertical"
        initialValues={props.initialValues}
        preserve={false}
        data-testid={props.testId}
      >
        {props.children}
      </Form>
    </Modal>
  );
}
