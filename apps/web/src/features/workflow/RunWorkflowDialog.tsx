import { JOB_ROUTES } from '@shuili/contract';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { feedback } from '../../lib/feedback';
import { runWorkflow } from './workflow-api';

/** A JSON object's text, or the reason it is not one (init params must be an object). */
export function initParamsProblem(text: string): 'json' | 'object' | undefined {
  if (!text.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? undefined
      : 'object';
  } catch {
    return 'json';
  }
}

interface RunWorkflowDialogProps {
  workflow: { id: string; name: string; initParams: string } | undefined;
  onClose: () => void;
}

/** Runs a workflow once, with init params (the workflow's own unless changed here). */
export function RunWorkflowDialog({ workflow, onClose }: RunWorkflowDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState<string | undefined>();
  const [running, setRunning] = useState(false);
  const value = text ?? workflow?.initParams ?? '';
  const problem = initParamsProblem(value);

  const close = () => {
    setText(undefined);
    onClose();
  };

  const run = async () => {
    if (!workflow || problem) return;
    setRunning(true);
    try {
      // Only params changed here are sent: otherwise the workflow's own apply.
      const { wfInstanceId } = await runWorkflow(
        workflow.id,
        text === undefined ? undefined : value,
      );
      close();
      const href = `${JOB_ROUTES.workflowinstancedetails}?wfInstanceId=${wfInstanceId}`;
      feedback.success(t('workflow.run.started', { id: wfInstanceId }), 3);
      void navigate(href);
    } catch {
      // The http client said why (disabled, too many instances).
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open={!!workflow}
      title={t('workflow.run.title', { name: workflow?.name ?? '' })}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          {t('workflow.cancel')}
        </Button>,
        <Button
          key="run"
          type="primary"
          loading={running}
          disabled={!!problem}
          onClick={() => void run()}
          data-testid="wf-run-confirm"
        >
          {t('workflow.run.confirm')}
        </Button>,
      ]}
    >
      <Form layout="vertical">
        <Form.Item
          label={t('workflow.run.initParams')}
          extra={t('workflow.run.initParamsHint')}
          validateStatus={problem ? 'error' : undefined}
          help={problem ? t(`workflow.run.${problem}`) : undefined}
        >
          <Input.TextArea
            rows={6}
            value={value}
            onChange={(event) => setText(event.target.value)}
            data-testid="wf-run-params"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
