import { INSTANCE_STATE_OPTIONS, JOB_ROUTES } from '@shuili/contract';
import { Descriptions, Drawer, Result, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../lib/format';
import { useLabel } from '../../resource/field-label';
import { useJobInstanceDetail } from './workflow-api';
import styles from './workflow.module.css';

/** A workflow node's job instance (its sub-instance): state, times, params, result, log. */
export function JobInstanceDrawer({
  id,
  onClose,
}: {
  id: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const label = useLabel();
  const detail = useJobInstanceDetail(id);
  const data = detail.data;
  const state = data && INSTANCE_STATE_OPTIONS.find((option) => option.value === data.status);
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      size="large"
      title={t('workflow.jobInstance.title', { id: id ?? '' })}
      data-testid="wf-job-instance-drawer"
    >
      {detail.isLoading ? (
        <Spin />
      ) : !data ? (
        <Result status="warning" title={t('workflow.jobInstance.none')} />
      ) : (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('workflow.jobInstance.id')}>
              <Link to={`${JOB_ROUTES.taskinstance}?instanceId=${data.id}`} onClick={onClose}>
                {t('workflow.jobInstance.open', { id: data.id })}
              </Link>
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.jobInstance.job')}>
              {data.jobName}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.status')}>
              {state ? label(state.label) : data.status}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.startTime')}>
              {formatDate(data.startTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.finishedTime')}>
              {formatDate(data.finishedTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.jobInstance.node')}>
              {data.taskTrackerAddress}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.jobInstance.runningTimes')}>
              {data.runningTimes}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.jobInstance.params')}>
              <pre className={styles.json}>{data.instanceParams}</pre>
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.result')}>
              <pre className={styles.json}>{data.result}</pre>
            </Descriptions.Item>
          </Descriptions>
          <h4>{t('workflow.jobInstance.log')}</h4>
          <pre className={styles.json} data-testid="wf-job-instance-log">
            {data.logs
              .map((line) => `${formatDate(line.at)} [${line.level}] ${line.node} ${line.line}`)
              .join('\n')}
          </pre>
          {data.subTasks.length > 0 && (
            <Tag>{t('workflow.jobInstance.subTasks', { count: data.subTasks.length })}</Tag>
          )}
        </>
      )}
    </Drawer>
  );
}
