import { ReloadOutlined } from '@ant-design/icons';
import {
  entityButtons,
  INSTANCE_STATE_OPTIONS,
  INSTANCE_TRIGGER_OPTIONS,
  JOB_CALLS,
  jobInfoEntity,
  jobInstanceEntity,
  DATE_FORMAT,
  SECONDLY_JOB_HISTORY,
  TOAST_MS,
} from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Modal,
  Select,
  Space,
  Table,
  Tooltip,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Permitted } from '../../core/Permitted';
import { usePermission } from '../../core/permission';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { http } from '../../lib/http';
import { ExportButton } from '../../resource/ExportButton';
import { useLabel } from '../../resource/field-label';
import { resourceApi } from '../../resource/resource-api';
import type { ResourceRow } from '../../resource/resource-row';
import { resourceKey } from '../../resource/use-resource';
import { InstanceDetailDrawer, instanceDetailKey } from './InstanceDetailDrawer';
import { anyLive, mayRetry, mayStop, showsSecondlyNote } from './instance-rules';
import { InstanceStatusTag } from './InstanceStatusTag';

const PAGE_SIZES = [10, 20, 50, 100];
/** While a shown instance has not ended, the list asks again this often. */
const LIVE_MS = 2000;
/** Otherwise this often: instances the schedules make meanwhile appear without a reload. */
const IDLE_MS = 10_000;
/** The job filter offers this many jobs (a district has tens). */
const JOB_OPTIONS = 200;
const FIELDS = jobInstanceEntity.fields;
const BUTTONS = entityButtons(jobInstanceEntity);
const instances = resourceApi(jobInstanceEntity);
const jobs = resourceApi(jobInfoEntity);
/**
 * The time filter is offered when the instance entity lets the list filter by the expected
 * trigger time (a range search: expectedTriggerTimeFrom / To).
 */
const RANGE_FIELD =
  FIELDS.expectedTriggerTime?.search === 'range' ? 'expectedTriggerTime' : undefined;

/**
 * Spec /taskinstance: the instances of the jobs, filtered by job (?jobId=) and state, live while
 * any shown one runs; details (log, sub-tasks), stop and retry.
 */
export function TaskInstancePage() {
  const { t } = useTranslation();
  const label = useLabel();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useSearchParams();
  const jobId = search.get('jobId') ?? undefined;
  const [statuses, setStatuses] = useState<string[]>([]);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState({ currentPage: 1, pageSize: PAGE_SIZES[0]! });
  // A link to an instance (the run-once toast) opens its details, also on a page kept open.
  const linked = search.get('instanceId') ?? undefined;
  const [detailId, setDetailId] = useState<string | undefined>(linked);
  const [shownLink, setShownLink] = useState(linked);
  if (linked !== shownLink) {
    setShownLink(linked);
    if (linked) setDetailId(linked);
  }
  const mayStopAny = usePermission('taskinstance:stop');
  const mayRetryAny = usePermission('taskinstance:retry');

  const jobList = useQuery({
    queryKey: [...resourceKey(jobInfoEntity), 'options'],
    queryFn: ({ signal }) =>
      jobs.query({ currentPage: '1', pageSize: String(JOB_OPTIONS) }, signal),
  });
  const job = jobList.data?.list.find((row) => row.id === jobId);

  const filters = {
    jobId,
    status: statuses.length > 0 ? statuses.join(',') : undefined,
    ...(RANGE_FIELD && {
      [`${RANGE_FIELD}From`]: range?.[0]?.toISOString(),
      [`${RANGE_FIELD}To`]: range?.[1]?.toISOString(),
    }),
  };
  const params = {
    ...filters,
    currentPage: String(page.currentPage),
    pageSize: String(page.pageSize),
  };
  const list = useQuery({
    queryKey: [...resourceKey(jobInstanceEntity), 'page', params],
    queryFn: ({ signal }) => instances.query(params, signal),
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (anyLive(query.state.data?.list ?? []) ? LIVE_MS : IDLE_MS),
  });
  const rows = list.data?.list ?? [];

  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: resourceKey(jobInstanceEntity) });

  const act = (row: ResourceRow, action: 'stop' | 'retry') => {
    void modal.confirm({
      title: t(`jobs.${action}.title`, { id: row.id }),
      content: t(`jobs.${action}.confirm`),
      okText: t(`jobs.${action}.ok`),
      okButtonProps: {
        danger: action === 'stop',
        'data-testid': `instance-${action}-confirm`,
      } as never,
      cancelText: t('resource.cancel'),
      onOk: async () => {
        try {
          await http.post(action === 'stop' ? JOB_CALLS.stopInstance : JOB_CALLS.retryInstance, {
            data: { id: row.id },
          });
        } catch {
          // The http client said why (it ended meanwhile, say); the list shows what is so.
          refresh();
          return;
        }
        feedback.success(t(`jobs.${action}.done`, { id: row.id }), TOAST_MS.success / 1000);
        refresh();
        void queryClient.invalidateQueries({ queryKey: instanceDetailKey(row.id) });
      },
    });
  };

  const columns: TableColumnsType<ResourceRow> = [
    {
      key: 'id',
      dataIndex: 'id',
      title: t('jobs.instanceId'),
      render: (id: string) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          onClick={() => setDetailId(id ?? '')}
        >
          {id}
        </Button>
      ),
    },
    {
      key: 'jobId',
      title: label(FIELDS.jobId!.label),
      render: (_: unknown, row) => String(row.jobIdLabel ?? row.jobId ?? ''),
    },
    {
      key: 'status',
      title: label(FIELDS.status!.label),
      render: (_: unknown, row) => <InstanceStatusTag status={row.status} />,
    },
    {
      key: 'triggerType',
      title: label(FIELDS.triggerType!.label),
      render: (_: unknown, row) => {
        const option = INSTANCE_TRIGGER_OPTIONS.find((item) => item.value === row.triggerType);
        return option ? label(option.label) : String(row.triggerType ?? '');
      },
    },
    ...(['expectedTriggerTime', 'triggerTime', 'finishedTime'] as const).map((name) => ({
      key: name,
      title: label(FIELDS[name]!.label),
      render: (_: unknown, row: ResourceRow) => formatDate(row[name] as string | null),
    })),
    { key: 'runningTimes', dataIndex: 'runningTimes', title: label(FIELDS.runningTimes!.label) },
    {
      key: 'taskTrackerAddress',
      dataIndex: 'taskTrackerAddress',
      title: label(FIELDS.taskTrackerAddress!.label),
    },
    {
      key: 'actions',
      title: t('resource.actions'),
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => setDetailId(row.id ?? '')}
            data-testid="instance-row-detail"
          >
            {t('jobs.detail.button')}
          </Button>
          {mayStopAny && mayStop(row.status) && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => act(row, 'stop')}
              data-testid="instance-row-stop"
            >
              {t('jobs.stop.button')}
            </Button>
          )}
          {mayRetryAny && mayRetry(row.status) && (
            <Button
              type="link"
              size="small"
              onClick={() => act(row, 'retry')}
              data-testid="instance-row-retry"
            >
              {t('jobs.retry.button')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const jobOptions = useMemo(
    () =>
      (jobList.data?.list ?? []).map((row) => ({
        value: row.id,
        label: String(row.jobName ?? row.id),
      })),
    [jobList.data],
  );

  const setJob = (next: string | undefined) => {
    setPage((current) => ({ ...current, currentPage: 1 }));
    setSearch(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next) copy.set('jobId', next);
        else copy.delete('jobId');
        copy.delete('instanceId');
        return copy;
      },
      { replace: true },
    );
  };

  return (
    <Card
      title={label(jobInstanceEntity.title)}
      data-testid="resource-page"
      data-entity="JobInstance"
    >
      {modalHolder}
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 220 }}
          placeholder={label(FIELDS.jobId!.label)}
          aria-label={label(FIELDS.jobId!.label)}
          options={jobOptions}
          value={jobId && (job || !jobList.isFetching) ? jobId : undefined}
          onChange={(value: string | undefined) => setJob(value)}
          loading={jobList.isFetching}
          data-testid="instance-filter-job"
        />
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 260 }}
          placeholder={label(FIELDS.status!.label)}
          aria-label={label(FIELDS.status!.label)}
          options={INSTANCE_STATE_OPTIONS.map((option) => ({
            value: option.value,
            label: label(option.label),
          }))}
          value={statuses}
          onChange={(next: string[]) => {
            setStatuses(next);
            setPage((current) => ({ ...current, currentPage: 1 }));
          }}
          data-testid="instance-filter-status"
        />
        {RANGE_FIELD && (
          <DatePicker.RangePicker
            showTime
            format={DATE_FORMAT}
            value={range}
            placeholder={[t('resource.rangeFrom'), t('resource.rangeTo')]}
            aria-label={label(FIELDS[RANGE_FIELD]!.label)}
            onChange={(next) => {
              setRange(next);
              setPage((current) => ({ ...current, currentPage: 1 }));
            }}
            data-testid="instance-filter-time"
          />
        )}
        <Permitted code={BUTTONS.export}>
          <ExportButton entity={jobInstanceEntity} params={filters} />
        </Permitted>
        <Tooltip title={t('resource.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('resource.refresh')}
            onClick={refresh}
            data-testid="resource-refresh"
          />
        </Tooltip>
      </Space>
      {showsSecondlyNote(job) && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="instance-secondly-note"
          title={t('jobs.secondlyNote', { count: SECONDLY_JOB_HISTORY })}
        />
      )}
      <Table<ResourceRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching && !list.data}
        scroll={{ x: 'max-content' }}
        data-testid="resource-table"
        onChange={(pagination) =>
          setPage((current) => ({
            currentPage: pagination.pageSize !== current.pageSize ? 1 : (pagination.current ?? 1),
            pageSize: pagination.pageSize ?? current.pageSize,
          }))
        }
        pagination={{
          current: page.currentPage,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('resource.total', { total }),
        }}
      />
      <InstanceDetailDrawer instanceId={detailId} onClose={() => setDetailId(undefined)} />
    </Card>
  );
}
