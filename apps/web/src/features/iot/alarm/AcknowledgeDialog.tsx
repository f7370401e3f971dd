import { TOAST_MS } from '@shuili/contract';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';

export interface AcknowledgeDialogProps {
  /** The alarms to acknowledge; the dialog is open while there are some. */
  ids: readonly string[];
  onClose: () => void;
  /** After the server acknowledged them all. */
  onDone: () => void;
}

/**
 * Acknowledges one alarm or several with one comment: one call, all or none (the server checks
 * each against the caller's scope).
 */
export function AcknowledgeDialog({ ids, onClose, onDone }: AcknowledgeDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ comment?: string }>();
  const acknowledge = useMutation({
    mutationFn: (comment: string) =>
      http.post<null>('/api/iot/alarm/acknowledgeAlarm', { data: { ids, comment } }),
    onSuccess: () => {
      feedback.success(
        ids.length === 1
          ? t('iot.alarm.acknowledged')
          : t('iot.alarm.acknowledgedMany', { count: ids.length }),
        TOAST_MS.success / 1000,
      );
      onDone();
    },
  });
  return (
    <Modal
      open={ids.length > 0}
      title={
        ids.length === 1
          ? t('iot.alarm.acknowledge')
          : t('iot.alarm.acknowledgeMany', { count: ids.length })
      }
      okText={t('iot.alarm.acknowledge')}
      cancelText={t('iot.cancel')}
      confirmLoading={acknowledge.isPending}
      okButtonProps={{ 'data-testid': 'alarm-ack-ok' } as ButtonProps}
      destroyOnHidden
      onCancel={onClose}
      onOk={() =>
        void form
          .validateFields()
          .then(({ comment }) => acknowledge.mutate(comment ?? ''))
          .catch(() => undefined)
      }
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="comment"
          label={t('iot.alarm.comment')}
          rules={[{ max: 500, message: t('iot.thingModel.tooLong', { max: 500 }) }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="alarm-ack-comment" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
