import { JOB_CALLS, TOAST_MS } from '@shuili/contract';
import { Form, Input, message, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../lib/http';
import type { ResourceRow } from '../../resource/resource-row';

export interface RunJobDialogProps {
  /** The job to run; closed when undefined. */
  job: ResourceRow | undefined;
  onClose: () => void;
  onRan?: (instanceId: string) => void;
}

/**
 * Runs a job once now (an API-triggered instance), with optional instance params; the toast
 * links to the instance made.
 */
export function RunJobDialog({ job, onClose, onRan }: RunJobDialogProps) {
  const { t } = useTranslation();
  const [params, setParams] = useState('');
  const [running, setRunning] = useState(false);
  // A toast of the page's own (not the static one): its link needs the router.
  const [toast, toastHolder] = message.useMessage();

  const run = async () => {
    if (!job) return;
    setRunning(true);
    try {
      const answer = await http.post<{ instanceId: string }>(JOB_CALLS.runJob, {
        data: { id: job.id, instanceParams: params.trim() === '' ? null : params },
      });
      void toast.success(
        <span data-testid="job-run-done">
          {t('jobs.run.started', { id: answer.instanceId })}{' '}
          <Link to={`/taskinstance?jobId=${job.id}&instanceId=${answer.instanceId}`}>
            {t('jobs.run.view')}
          </Link>
        </span>,
        TOAST_MS.success / 1000,
      );
      onRan?.(answer.instanceId);
      setParams('');
      onClose();
    } catch {
      // The http client said why (a disabled job, one that no longer exists).
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      {toastHolder}
      <Modal
        open={!!job}
        title={t('jobs.run.title', { name: String(job?.jobName ?? '') })}
        okText={t('jobs.run.ok')}
        cancelText={t('resource.cancel')}
        okButtonProps={{ loading: running, 'data-testid': 'job-run-ok' } as never}
        onOk={() => void run()}
        onCancel={onClose}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('jobs.run.params')} extra={t('jobs.run.paramsExtra')}>
            <Input.TextArea
              rows={4}
              maxLength={20_000}
              value={params}
              onChange={(event) => setParams(event.target.value)}
              data-testid="job-run-params"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
