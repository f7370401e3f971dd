import {
  FLOOD_LEVELS,
  MOUNTAIN_TORRENT_EXAMPLE,
  NATIONAL_RAIN_SIGNALS,
  RAIN_WINDOWS,
  rainWindowKey,
  TOAST_MS,
  type AlarmLevel,
  type AreaDef,
  type FloodThreshold,
  type RainThresholds,
} from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { useReportDevices } from '../report/use-report-devices';
import { ALARM_COLOR } from '../widgets/widget-colors';
import { floodThresholdApi } from './flood-api';

/** Whether two sets of thresholds ask the same (a default equal to the signals is them). */
const sameThresholds = (a: RainThresholds, b: RainThresholds) =>
  FLOOD_LEVELS.every((level) =>
    RAIN_WINDOWS.every(
      (hours) => a[level][rainWindowKey(hours)] === b[level][rainWindowKey(hours)],
    ),
  );

/** The select's value of the tenant's default (no station). */
const DEFAULT = 'default';

/**
 * The rainstorm thresholds of the flood area: for the tenant's default or one station, mm per
 * level and window (empty: the level ignores that window). A station without its own goes by
 * the default, the default by the national rainstorm signals; the mountain-torrent example is
 * a starting point for small steep catchments.
 */
export function FloodThresholdTab({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const stations = useReportDevices(area, '');
  const [picked, setPicked] = useState<string>(DEFAULT);
  const deviceId = picked === DEFAULT ? null : picked;
  const stored = useQuery({
    queryKey: ['monitor', 'floodThreshold', deviceId],
    queryFn: ({ signal }) => floodThresholdApi.read(deviceId, signal),
    retry: false,
  });
  // The reader's edits and the server's refusals, against the thresholds they were made on: a
  // station picked or a save answered starts afresh from what is stored.
  const [edit, setEdit] = useState<{
    base: FloodThreshold | undefined;
    thresholds: RainThresholds | undefined;
    problems: Map<string, string>;
  }>();
  const current = edit && edit.base === stored.data ? edit : undefined;
  const draft = current?.thresholds ?? stored.data?.thresholds;
  const problems = current?.problems ?? new Map<string, string>();
  const setDraft = (thresholds: RainThresholds | undefined) =>
    setEdit({ base: stored.data, thresholds, problems });

  const save = useMutation({
    mutationFn: (thresholds: RainThresholds | null) => floodThresholdApi.save(deviceId, thresholds),
    onSuccess: (saved) => {
      feedback.success(t('monitor.flood.thresholdsSaved'), TOAST_MS.success / 1000);
      queryClient.setQueryData(['monitor', 'floodThreshold', deviceId], saved);
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'floodThreshold'] });
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'floodStatus'] });
    },
    onError: (error) => {
      if (error instanceof HttpError)
        setEdit({
          base: stored.data,
          thresholds: draft,
          problems: new Map(error.fieldErrors.map((one) => [one.field, one.message])),
        });
    },
  });

  const setCell = (level: AlarmLevel, hours: (typeof RAIN_WINDOWS)[number], mm: number | null) =>
    draft && setDraft({ ...draft, [level]: { ...draft[level], [rainWindowKey(hours)]: mm } });

  return (
    <Flex vertical gap={12} data-testid="flood-threshold-tab">
      <Flex gap={12} align="center" wrap>
        <Select
          value={picked}
          onChange={setPicked}
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 320 }}
          aria-label={t('monitor.flood.appliesTo')}
          data-testid="flood-threshold-station"
          options={[
            { value: DEFAULT, label: t('monitor.flood.tenantDefault') },
            ...(stations.data ?? []).map((station) => ({
              value: station.id,
              label: station.label,
            })),
          ]}
        />
        {stored.data && (
          <Tag color={stored.data.own ? 'blue' : 'default'} data-testid="flood-threshold-own">
            {stored.data.own
              ? t('monitor.flood.ownThresholds')
              : deviceId && !sameThresholds(stored.data.inherited, NATIONAL_RAIN_SIGNALS)
                ? t('monitor.flood.defaultThresholds')
                : t('monitor.flood.nationalThresholds')}
          </Tag>
        )}
      </Flex>
      {stored.error instanceof HttpError && (
        <Alert type="error" showIcon message={stored.error.message} />
      )}
      <Table
        size="small"
        pagination={false}
        rowKey="level"
        loading={stored.isPending}
        data-testid="flood-threshold-table"
        dataSource={FLOOD_LEVELS.map((level) => ({ level }))}
        columns={[
          {
            key: 'level',
            title: t('monitor.flood.levelColumn'),
            render: (_, row) => (
              <Tag color={ALARM_COLOR[row.level]}>{t(`monitor.flood.level.${row.level}`)}</Tag>
            ),
          },
          ...RAIN_WINDOWS.map((hours) => ({
            key: rainWindowKey(hours),
            title: t('monitor.flood.hours', { hours }),
            render: (_: unknown, row: { level: AlarmLevel }) => {
              const field = `thresholds.${row.level}.${rainWindowKey(hours)}`;
              const problem = problems.get(field);
              return (
                <div>
                  <InputNumber<number>
                    value={draft?.[row.level][rainWindowKey(hours)] ?? null}
                    onChange={(mm) => setCell(row.level, hours, mm)}
                    min={0.1}
                    max={2000}
                    precision={1}
                    suffix="mm"
                    status={problem ? 'error' : undefined}
                    style={{ width: 120 }}
                    aria-label={`${t(`monitor.flood.level.${row.level}`)} ${t('monitor.flood.hours', { hours })}`}
                    data-testid={`flood-threshold-${row.level}-${rainWindowKey(hours)}`}
                  />
                  {problem && (
                    <div>
                      <Typography.Text type="danger" style={{ fontSize: 12 }}>
                        {problem}
                      </Typography.Text>
                    </div>
                  )}
                </div>
              );
            },
          })),
        ]}
      />
      {problems.get(`thresholds`) && <Alert type="error" message={problems.get('thresholds')} />}
      {[...problems.entries()]
        .filter(([field]) => /^thresholds\.[a-z]+$/.test(field))
        .map(([field, message]) => (
          <Alert key={field} type="error" showIcon message={message} />
        ))}
      <Typography.Text type="secondary">{t('monitor.flood.thresholdHelp')}</Typography.Text>
      <Space wrap>
        <Button
          type="primary"
          disabled={!draft}
          loading={save.isPending}
          onClick={() => draft && save.mutate(draft)}
          data-testid="flood-threshold-save"
        >
          {t('monitor.config.save')}
        </Button>
        <Button
          onClick={() => setDraft(NATIONAL_RAIN_SIGNALS)}
          data-testid="flood-threshold-national"
        >
          {t('monitor.flood.useNational')}
        </Button>
        <Button onClick={() => setDraft(MOUNTAIN_TORRENT_EXAMPLE)}>
          {t('monitor.flood.useTorrent')}
        </Button>
        {stored.data?.own && (
          <Button danger onClick={() => save.mutate(null)} data-testid="flood-threshold-reset">
            {deviceId ? t('monitor.flood.resetStation') : t('monitor.flood.resetDefault')}
          </Button>
        )}
      </Space>
    </Flex>
  );
}
