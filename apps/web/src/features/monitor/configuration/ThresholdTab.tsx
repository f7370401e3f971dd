import {
  alarmRuleEntity,
  entityButtons,
  MONITOR_THRESHOLD_CALLS,
  THRESHOLD_KINDS,
  TOAST_MS,
  type AreaDef,
  type AreaThreshold,
  type FactorThreshold,
} from '@shuili/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Flex,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../core/permission';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useUnit } from '../../iot/units';
import { useReportDevices } from '../report/use-report-devices';
import {
  draftOf,
  isChanged,
  saveBody,
  usesHigh,
  usesLow,
  type LevelDraft,
  type ThresholdDraft,
} from './threshold-edit';

const thresholdApi = {
  query: (params: { area: string; productId?: string; deviceId?: string }, signal?: AbortSignal) =>
    http.get<AreaThreshold>(MONITOR_THRESHOLD_CALLS.query, { params, signal }),
  save: (body: ReturnType<typeof saveBody>) =>
    http.post<FactorThreshold>(MONITOR_THRESHOLD_CALLS.save, { data: body }),
};

interface LevelEditorProps {
  level: LevelDraft;
  onChange: (level: LevelDraft) => void;
  precision: number | null;
  testId: string;
  disabled: boolean;
}

/** One level's condition and the bounds it uses. */
function LevelEditor({ level, onChange, precision, testId, disabled }: LevelEditorProps) {
  const { t } = useTranslation();
  const bound = (side: 'low' | 'high') => (
    <span data-testid={`${testId}-${side}`}>
      <InputNumber<number>
        size="small"
        value={level[side]}
        precision={precision ?? undefined}
        placeholder={t(`monitor.config.${side}`)}
        aria-label={t(`monitor.config.${side}`)}
        onChange={(value) => onChange({ ...level, [side]: value ?? null })}
        style={{ width: 96 }}
        disabled={disabled}
      />
    </span>
  );
  return (
    <Space size={4} wrap data-testid={testId}>
      <span data-testid={`${testId}-kind`}>
        <Select
          size="small"
          value={level.kind}
          onChange={(kind) => onChange({ ...level, kind })}
          options={[
            { value: 'none', label: t('monitor.config.kinds.none') },
            ...THRESHOLD_KINDS.map((kind) => ({
              value: kind,
              label: t(`monitor.config.kinds.${kind}`),
            })),
          ]}
          style={{ width: 110 }}
          disabled={disabled}
        />
      </span>
      {usesLow(level.kind) && bound('low')}
      {usesHigh(level.kind) && bound('high')}
    </Space>
  );
}

/**
 * Alarm thresholds of the area's factors, for one product (every device of it) or one device:
 * per numeric factor a warning (yellow) and a danger (red) level above, below or outside, one
 * hysteresis and a no-data time, edited in place and saved a factor at a time (its rules written
 * together on the server, all or none).
 */
export function ThresholdTab({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const label = useLabel();
  const unitOf = useUnit();
  const queryClient = useQueryClient();
  // Thresholds are alarm rules: who may edit those may edit these (the server checks the call).
  const mayEdit = usePermission(entityButtons(alarmRuleEntity).edit);
  const [productId, setProductId] = useState<string | undefined>();
  const [deviceId, setDeviceId] = useState<string | undefined>();
  const params = { area: area.code, productId, deviceId };
  const thresholds = useQuery({
    queryKey: ['monitor', 'thresholds', params],
    queryFn: ({ signal }) => thresholdApi.query(params, signal),
    placeholderData: keepPreviousData,
  });
  const data = thresholds.data;
  const shownProduct = productId ?? data?.productId ?? undefined;
  const devices = useReportDevices(area, '');
  const productDevices = (devices.data ?? []).filter((device) => device.productId === shownProduct);

  // The reader's edits per factor; a factor not edited shows what is stored.
  const [edits, setEdits] = useState<Record<string, ThresholdDraft>>({});
  const draftFor = (factor: FactorThreshold) => edits[factor.key] ?? draftOf(factor);
  const scopeChanged = () => setEdits({});

  const save = useMutation({
    mutationFn: (factor: FactorThreshold) =>
      thresholdApi.save(
        saveBody(
          { area: area.code, productId: shownProduct!, deviceId },
          factor.key,
          draftFor(factor),
        ),
      ),
    onSuccess: async (_saved, factor) => {
      feedback.success(
        t('monitor.config.saved', { factor: label(factor.name) }),
        TOAST_MS.success / 1000,
      );
      await queryClient.invalidateQueries({ queryKey: ['monitor', 'thresholds'] });
      setEdits(({ [factor.key]: _saved, ...rest }) => rest);
    },
  });
  const edit = (factor: FactorThreshold, patch: Partial<ThresholdDraft>) =>
    setEdits((current) => ({
      ...current,
      [factor.key]: { ...(current[factor.key] ?? draftOf(factor)), ...patch },
    }));

  const columns: TableColumnsType<FactorThreshold> = [
    {
      key: 'factor',
      title: t('monitor.config.factor'),
      render: (_: unknown, factor) => (
        <span>
          {label(factor.name)}
          {factor.unit && (
            <Typography.Text type="secondary"> ({unitOf(factor.unit)})</Typography.Text>
          )}
        </span>
      ),
    },
    ...(['warning', 'danger'] as const).map((level) => ({
      key: level,
      title: <Tag color={level === 'warning' ? 'gold' : 'red'}>{t(`monitor.config.${level}`)}</Tag>,
      render: (_: unknown, factor: FactorThreshold) => (
        <LevelEditor
          level={draftFor(factor)[level]}
          onChange={(value) => edit(factor, { [level]: value })}
          precision={factor.precision}
          testId={`threshold-${factor.key}-${level}`}
          disabled={!mayEdit}
        />
      ),
    })),
    {
      key: 'hysteresis',
      title: t('monitor.config.hysteresis'),
      render: (_: unknown, factor) => (
        <InputNumber<number>
          size="small"
          min={0}
          value={draftFor(factor).hysteresis}
          precision={factor.precision ?? undefined}
          onChange={(value) => edit(factor, { hysteresis: value ?? null })}
          style={{ width: 90 }}
          disabled={!mayEdit}
          data-testid={`threshold-${factor.key}-hysteresis`}
        />
      ),
    },
    {
      key: 'noData',
      title: t('monitor.config.noData'),
      render: (_: unknown, factor) => (
        <InputNumber<number>
          size="small"
          min={1}
          max={10_080}
          precision={0}
          value={draftFor(factor).noDataMinutes}
          onChange={(value) => edit(factor, { noDataMinutes: value ?? null })}
          suffix={t('iot.unit.min')}
          style={{ width: 130 }}
          disabled={!mayEdit}
          data-testid={`threshold-${factor.key}-nodata`}
        />
      ),
    },
    {
      key: 'save',
      title: '',
      render: (_: unknown, factor) =>
        mayEdit && (
          <Button
            size="small"
            type="primary"
            disabled={!isChanged(draftFor(factor), factor)}
            loading={save.isPending && save.variables?.key === factor.key}
            onClick={() => save.mutate(factor)}
            data-testid={`threshold-${factor.key}-save`}
          >
            {t('monitor.config.save')}
          </Button>
        ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="threshold-tab">
      <Flex wrap gap={8}>
        <Select
          value={shownProduct}
          onChange={(id) => {
            setProductId(id);
            setDeviceId(undefined);
            scopeChanged();
          }}
          options={(data?.products ?? []).map((product) => ({
            value: product.id,
            label: `${product.productName} (${product.serialNo})`,
          }))}
          placeholder={t('monitor.config.product')}
          aria-label={t('monitor.config.product')}
          style={{ minWidth: 260 }}
          data-testid="threshold-product"
        />
        <Select
          value={deviceId}
          onChange={(id?: string) => {
            setDeviceId(id ?? undefined);
            scopeChanged();
          }}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={productDevices.map((device) => ({ value: device.id, label: device.label }))}
          placeholder={t('monitor.config.everyDevice')}
          aria-label={t('monitor.config.device')}
          style={{ minWidth: 260 }}
          data-testid="threshold-device"
        />
      </Flex>
      <Typography.Text type="secondary">
        {deviceId ? t('monitor.config.deviceHint') : t('monitor.config.productHint')}
      </Typography.Text>
      {data && data.products.length === 0 ? (
        <Alert type="info" showIcon message={t('monitor.config.noProducts')} />
      ) : (
        <Table<FactorThreshold>
          rowKey="key"
          size="small"
          columns={columns}
          dataSource={data?.factors ?? []}
          loading={thresholds.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="threshold-table"
          onRow={(factor) => ({ 'data-factor': factor.key }) as never}
        />
      )}
    </Flex>
  );
}
