import { JOB_CALLS, type AppNode } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Statistic, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRelative } from '../../lib/format';
import { http } from '../../lib/http';
import { useNow } from '../../lib/use-now';

/** The nodes report a heartbeat every few seconds; the screen follows them this often. */
const REFRESH_MS = 5000;

const gb = (value: number) => `${value.toFixed(1)} GB`;

/**
 * Spec /appmonitor: the server nodes that run the jobs (each one a worker): address, version,
 * heartbeat, load, free resources and this tenant's running instances, refreshed every 5 s.
 */
export function AppMonitorPage() {
  const { t } = useTranslation();
  const now = useNow();
  const nodes = useQuery({
    queryKey: ['jobs', 'nodes'],
    queryFn: ({ signal }) => http.get<AppNode[]>(JOB_CALLS.queryNodes, { signal }),
    refetchInterval: REFRESH_MS,
  });
  const list = nodes.data ?? [];
  const alive = list.filter((node) => node.alive);

  const columns: TableColumnsType<AppNode> = [
    { key: 'address', dataIndex: 'address', title: t('jobs.nodes.address') },
    { key: 'node', dataIndex: 'node', title: t('jobs.nodes.node') },
    { key: 'version', dataIndex: 'version', title: t('jobs.nodes.version') },
    {
      key: 'state',
      title: t('jobs.nodes.state'),
      render: (_: unknown, node) =>
        node.alive ? (
          <Tag color="success" data-testid="node-alive">
            {t('jobs.nodes.alive')}
          </Tag>
        ) : (
          <Tag color="error" data-testid="node-lost">
            {t('jobs.nodes.lost')}
          </Tag>
        ),
    },
    {
      key: 'startedAt',
      title: t('jobs.nodes.started'),
      render: (_: unknown, node) => formatDate(node.startedAt),
    },
    {
      key: 'lastHeartbeat',
      title: t('jobs.nodes.heartbeat'),
      render: (_: unknown, node) => (
        <Tooltip title={formatDate(node.lastHeartbeat)}>
          <span>{formatRelative(node.lastHeartbeat, { now })}</span>
        </Tooltip>
      ),
    },
    {
      key: 'load1',
      title: t('jobs.nodes.load'),
      render: (_: unknown, node) => node.load1.toFixed(2),
    },
    { key: 'cpuCores', dataIndex: 'cpuCores', title: t('jobs.nodes.cpuCores') },
    {
      key: 'memoryFreeGb',
      title: t('jobs.nodes.memoryFree'),
      render: (_: unknown, node) => gb(node.memoryFreeGb),
    },
    {
      key: 'diskFreeGb',
      title: t('jobs.nodes.diskFree'),
      render: (_: unknown, node) => gb(node.diskFreeGb),
    },
    { key: 'runningInstances', dataIndex: 'runningInstances', title: t('jobs.nodes.running') },
  ];

  return (
    <div data-testid="app-monitor">
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic
              title={t('jobs.nodes.aliveCount')}
              value={alive.length}
              suffix={`/ ${list.length}`}
              data-testid="nodes-alive-count"
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic
              title={t('jobs.nodes.runningCount')}
              value={list.reduce((sum, node) => sum + node.runningInstances, 0)}
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic
              title={t('jobs.nodes.coresCount')}
              value={alive.reduce((sum, node) => sum + node.cpuCores, 0)}
            />
          </Card>
        </Col>
      </Row>
      <Card
        title={t('jobs.nodes.title')}
        extra={t('jobs.nodes.refresh', { seconds: REFRESH_MS / 1000 })}
      >
        {nodes.error && <Alert type="error" showIcon title={nodes.error.message} />}
        <Table<AppNode>
          rowKey="node"
          size="middle"
          columns={columns}
          dataSource={list}
          loading={nodes.isFetching && !nodes.data}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="nodes-table"
        />
      </Card>
    </div>
  );
}
