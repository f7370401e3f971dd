import { VideoCameraOutlined } from '@ant-design/icons';
import type { ZoneNode } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Empty, Flex, List, Segmented, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useZoneStore } from '../../admin-extra/zone-store';
import { CameraCell } from './CameraCell';
import { columnsOf, fillCells, GRID_LAYOUTS, placeCamera, type GridLayout } from './grid-cells';
import { camerasOf } from './video-api';
import styles from './VideoGridPage.module.css';

interface ZoneTreeNode {
  key: string;
  title: string;
  children: ZoneTreeNode[];
}

const treeOf = (nodes: readonly ZoneNode[]): ZoneTreeNode[] =>
  nodes.map((node) => ({
    key: node.id,
    title: node.zoneName,
    children: treeOf(node.children ?? []),
  }));

/**
 * The live grid (spec §2 /video): the cameras of the user's zones (a zone picked in the tree
 * narrows them to it and the zones below), 1, 4 or 9 cells, each playing the camera picked for it
 * (select a cell, then a camera), full screen per cell, and a snapshot that lands among the
 * images of the camera's device. The grid opens filled with the first cameras.
 */
export function VideoGridPage() {
  const { t } = useTranslation();
  const zoneList = useZoneStore((state) => state.zoneList);
  const zoneTree = useMemo(() => treeOf(zoneList), [zoneList]);
  const [zoneId, setZoneId] = useState<string | undefined>();
  const [layout, setLayout] = useState<GridLayout>(4);
  const [cells, setCells] = useState<(string | undefined)[]>([]);
  const [selected, setSelected] = useState(0);
  const cameras = useQuery({
    queryKey: ['video', 'cameras', zoneId ?? ''],
    queryFn: ({ signal }) => camerasOf(zoneId, signal),
  });
  const list = useMemo(() => cameras.data ?? [], [cameras.data]);
  const byId = useMemo(() => new Map(list.map((camera) => [camera.id, camera])), [list]);

  // A new list (a zone picked, a camera added) or a bigger layout keeps what still plays and
  // fills the empty cells (adjusted while rendering, not in an effect: no extra frame).
  const [filledFor, setFilledFor] = useState<{ data: unknown; layout: GridLayout }>();
  if (cameras.data && (filledFor?.data !== cameras.data || filledFor.layout !== layout)) {
    setFilledFor({ data: cameras.data, layout });
    setCells(
      fillCells(
        cells,
        cameras.data.map((one) => one.id),
        layout,
      ),
    );
  }

  const pick = (cameraId: string) => {
    const placed = placeCamera(cells, selected, cameraId, layout);
    setCells(placed.cells);
    setSelected(placed.next);
  };
  const shown = new Set(cells.slice(0, layout));

  return (
    <div className={styles.layout} data-testid="video-grid-page">
      <Flex vertical gap={12}>
        <Card size="small" title={t('monitor.video.zones')}>
          <Tree<ZoneTreeNode>
            treeData={zoneTree}
            defaultExpandAll
            selectedKeys={zoneId ? [zoneId] : []}
            onSelect={(keys) => setZoneId(keys[0] === undefined ? undefined : String(keys[0]))}
            data-testid="video-zone-tree"
          />
        </Card>
        <Card
          size="small"
          title={t('monitor.video.cameras', { total: list.length })}
          loading={cameras.isPending}
        >
          <List
            className={styles.list}
            size="small"
            dataSource={list}
            locale={{ emptyText: <Empty description={t('monitor.video.noCameras')} /> }}
            renderItem={(camera) => (
              <List.Item
                className={`${styles.camera} ${shown.has(camera.id) ? styles.shown : ''}`}
                onClick={() => pick(camera.id)}
                data-testid="video-camera-item"
                data-camera={camera.id}
              >
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text ellipsis>
                    <VideoCameraOutlined /> {camera.cameraName}
                  </Typography.Text>
                  <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                    {camera.zoneName ?? ''}
                    {camera.deviceNo ? ` · ${camera.deviceNo}` : ''}
                  </Typography.Text>
                </Flex>
                {camera.online !== null && (
                  <Badge
                    status={camera.online ? 'success' : 'default'}
                    title={camera.online ? t('monitor.video.online') : t('monitor.video.offline')}
                  />
                )}
              </List.Item>
            )}
          />
        </Card>
      </Flex>
      <Card
        size="small"
        title={t('monitor.video.hint')}
        extra={
          <Segmented<GridLayout>
            value={layout}
            onChange={(value) => {
              setLayout(value);
              setSelected((cell) => (cell < value ? cell : 0));
            }}
            options={GRID_LAYOUTS.map((value) => ({
              value,
              label: t(`monitor.video.layout.${value}`),
            }))}
            data-testid="video-layout"
          />
        }
      >
        <div
          className={styles.grid}
          style={{ gridTemplateColumns: `repeat(${columnsOf(layout)}, minmax(0, 1fr))` }}
          data-testid="video-grid"
          data-layout={layout}
        >
          {Array.from({ length: layout }, (_, index) => (
            <CameraCell
              key={index}
              index={index}
              camera={cells[index] ? byId.get(cells[index]) : undefined}
              selected={index === selected}
              onSelect={() => setSelected(index)}
              onClear={() => setCells(cells.map((id, at) => (at === index ? undefined : id)))}
            />
          ))}
        </div>
      </Card>
    </div>
  );
}
