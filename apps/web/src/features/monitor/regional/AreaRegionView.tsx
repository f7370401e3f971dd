import { entityButtons, iotDeviceEntity, iotDevicePageRoute, type AreaDef } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Row,
  Space,
  Statistic,
  Table,
  Tag,
  Tree,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermission } from '../../../core/permission';
import { LastSeen } from '../devices/LastSeen';
import { MoveDeviceDialog } from './MoveDeviceDialog';
import { regionApi } from './region-api';
import {
  countsOf,
  findNode,
  NO_ZONE,
  regionTree,
  subtreeIds,
  type RegionDevice,
  type RegionNode,
  type StateCounts,
} from './region-tree';
import { ValveGroupList } from './ValveGroupList';

/** The tree's node of every zone at once. */
const ALL = '*';

function CountTags({ counts }: { counts: StateCounts }) {
  const { t } = useTranslation();
  return (
    <Space size={2}>
      <Tag color="green">{t('monitor.regional.onlineCount', { count: counts.online })}</Tag>
      <Tag>{t('monitor.regional.offlineCount', { count: counts.offline })}</Tag>
      {counts.fault > 0 && (
        <Tag color="red">{t('monitor.regional.faultCount', { count: counts.fault })}</Tag>
      )}
    </Space>
  );
}

interface TreeItem {
  key: string;
  title: ReactNode;
  children: TreeItem[];
}

function treeItems(nodes: readonly RegionNode[]): TreeItem[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <span data-testid="region-zone" data-zone-id={node.id}>
        {node.zoneName} <Typography.Text type="secondary">({node.counts.total})</Typography.Text>
      </span>
    ),
    children: treeItems(node.children),
  }));
}

export interface AreaRegionViewProps {
  area: AreaDef;
  title: ReactNode;
}

/**
 * Regional management: the zone tree with the area's devices counted per zone (with the zones
 * below it) by state; the chosen zone's devices, each movable to another zone by a user who may
 * edit devices; and the valve groups of the chosen zones with their member valves.
 */
export function AreaRegionView({ area, title }: AreaRegionViewProps) {
  const { t } = useTranslation();
  const mayMove = usePermission(entityButtons(iotDeviceEntity).edit);
  const region = useQuery({
    queryKey: ['monitor', 'region', area.code],
    queryFn: ({ signal }) => regionApi.region(area.code, signal),
  });
  const groups = useQuery({
    queryKey: ['monitor', 'region-groups'],
    queryFn: ({ signal }) => regionApi.valveGroups(signal),
  });
  const [selected, setSelected] = useState<string>(ALL);
  const [moving, setMoving] = useState<RegionDevice | undefined>();

  const roots = useMemo(() => (region.data ? regionTree(region.data) : []), [region.data]);
  const devices = useMemo(() => region.data?.devices ?? [], [region.data]);
  const byId = useMemo(() => new Map(devices.map((device) => [device.id, device])), [devices]);
  const zoneNames = useMemo(
    () => new Map((region.data?.zones ?? []).map((zone) => [zone.id, zone.zoneName])),
    [region.data],
  );
  const node = selected === ALL || selected === NO_ZONE ? undefined : findNode(roots, selected);
  const zoneIds = node ? subtreeIds(node) : undefined;
  const shown =
    selected === ALL
      ? devices
      : selected === NO_ZONE
        ? devices.filter((device) => !device.zoneId || !zoneNames.has(device.zoneId))
        : devices.filter((device) => device.zoneId && zoneIds?.has(device.zoneId));
  // Valve groups of the chosen zones; on "all zones", those holding an area device or a zone.
  const shownGroups = (groups.data ?? []).filter((group) =>
    selected === ALL
      ? group.members.some((member) => byId.has(member.deviceId)) ||
        (group.zoneId !== null && zoneNames.has(group.zoneId))
      : selected === NO_ZONE
        ? group.zoneId === null
        : group.zoneId !== null && !!zoneIds?.has(group.zoneId),
  );
  const counts = countsOf(shown);

  const columns: TableColumnsType<RegionDevice> = [
    {
      key: 'device',
      title: t('iot.device.name'),
      render: (_: unknown, device) => (
        <Link to={iotDevicePageRoute(device.id)}>{device.deviceName ?? device.deviceNo}</Link>
      ),
    },
    { key: 'no', title: t('iot.device.no'), dataIndex: 'deviceNo' },
    { key: 'product', title: t('iot.device.product'), dataIndex: 'productName' },
    {
      key: 'zone',
      title: t('iot.device.zone'),
      render: (_: unknown, device) =>
        (device.zoneId && zoneNames.get(device.zoneId)) ?? t('monitor.regional.noZone'),
    },
    {
      key: 'online',
      title: t('iot.device.online'),
      render: (_: unknown, device) =>
        device.online ? (
          <Tag color="green">{t('iot.device.isOnline')}</Tag>
        ) : (
          <Tag>{t('iot.device.isOffline')}</Tag>
        ),
    },
    {
      key: 'status',
      title: t('iot.device.status'),
      render: (_: unknown, device) =>
        device.status === 0 ? (
          <Tag color="success">{t('iot.device.normal')}</Tag>
        ) : (
          <Tag color="red">{t('iot.device.fault', { code: device.status })}</Tag>
        ),
    },
    {
      key: 'lastSeen',
      title: t('iot.device.lastSeen'),
      render: (_: unknown, device) => <LastSeen at={device.lastSeen} />,
    },
  ];
  if (mayMove)
    columns.push({
      key: 'actions',
      title: t('monitor.regional.actions'),
      render: (_: unknown, device) => (
        <Button
          type="link"
          size="small"
          onClick={() => setMoving(device)}
          data-testid="region-move"
        >
          {t('monitor.regional.move')}
        </Button>
      ),
    });

  const treeData: TreeItem[] = [
    {
      key: ALL,
      title: (
        <span data-testid="region-zone" data-zone-id={ALL}>
          {t('monitor.regional.allZones')}{' '}
          <Typography.Text type="secondary">({devices.length})</Typography.Text>
        </span>
      ),
      children: treeItems(roots),
    },
    {
      key: NO_ZONE,
      title: (
        <span data-testid="region-zone" data-zone-id={NO_ZONE}>
          {t('monitor.regional.noZone')}
        </span>
      ),
      children: [],
    },
  ];

  return (
    <Card title={title} data-testid="area-regional" data-area={area.code}>
      {region.isLoading ? null : !region.data ? (
        <Empty />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={8}>
            <Tree<TreeItem>
              treeData={treeData}
              defaultExpandAll
              blockNode
              selectedKeys={[selected]}
              onSelect={(keys) => {
                if (keys.length > 0) setSelected(String(keys[0]));
              }}
              data-testid="region-tree"
            />
          </Col>
          <Col xs={24} lg={16}>
            <Flex vertical gap={16}>
              <Flex wrap gap={24} align="center" data-testid="region-counts">
                <Statistic title={t('monitor.regional.devices')} value={counts.total} />
                <CountTags counts={counts} />
              </Flex>
              <Table<RegionDevice>
                rowKey="id"
                size="small"
                columns={columns}
                dataSource={shown}
                pagination={{ defaultPageSize: 20, showSizeChanger: true }}
                scroll={{ x: 'max-content' }}
                data-testid="region-devices"
              />
              <div>
                <Typography.Title level={5}>{t('monitor.regional.valveGroups')}</Typography.Title>
                <ValveGroupList groups={shownGroups} devices={byId} />
              </div>
            </Flex>
          </Col>
        </Row>
      )}
      <MoveDeviceDialog
        device={moving}
        zones={roots}
        onClose={() => setMoving(undefined)}
        onMoved={() => {
          setMoving(undefined);
          void region.refetch();
        }}
      />
    </Card>
  );
}
