import {
  REPORT_BUCKETS,
  DEVICE_AREAS,
  type AreaDef,
  type ReportBucket,
  type ThingProperty,
} from '@shuili/contract';
import { DatePicker, Flex, Segmented, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import { useUnit } from '../../iot/units';
import type { ReportDevice } from './use-report-devices';

export interface ReportControlsProps {
  /** The screen's area; undefined on the cross-area report, which picks an area first. */
  fixedArea: AreaDef | undefined;
  area: AreaDef | undefined;
  onArea: (code: string) => void;
  /** Devices offered: those chosen and those the search found. */
  deviceOptions: readonly ReportDevice[];
  deviceIds: readonly string[];
  onDevices: (ids: string[]) => void;
  onSearchDevices: (text: string) => void;
  searching: boolean;
  factorOptions: readonly ThingProperty[];
  keys: readonly string[];
  onKeys: (keys: string[]) => void;
  range: [Dayjs, Dayjs];
  onRange: (range: [Dayjs, Dayjs]) => void;
  bucket: ReportBucket;
  onBucket: (bucket: ReportBucket) => void;
}

/** What a report asks: (area,) devices, factors, range and bucket. Each change runs it again. */
export function ReportControls(props: ReportControlsProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const unitOf = useUnit();
  return (
    <Flex wrap gap={8} data-testid="report-controls">
      {!props.fixedArea && (
        <Select
          value={props.area?.code}
          onChange={props.onArea}
          options={DEVICE_AREAS.map((area) => ({ value: area.code, label: label(area.title) }))}
          placeholder={t('monitor.report.area')}
          aria-label={t('monitor.report.area')}
          style={{ width: 160 }}
          data-testid="report-area"
        />
      )}
      <Select
        mode="multiple"
        value={[...props.deviceIds]}
        onChange={props.onDevices}
        options={props.deviceOptions.map((device) => ({ value: device.id, label: device.label }))}
        showSearch={{ filterOption: false, onSearch: props.onSearchDevices }}
        loading={props.searching}
        maxTagCount="responsive"
        placeholder={t('monitor.report.devices')}
        aria-label={t('monitor.report.devices')}
        style={{ minWidth: 260, flex: 1 }}
        data-testid="report-devices"
      />
      <Select
        mode="multiple"
        value={[...props.keys]}
        onChange={props.onKeys}
        options={props.factorOptions.map((property) => ({
          value: property.key,
          label: property.unit
            ? `${label(property.name)} (${unitOf(property.unit)})`
            : label(property.name),
        }))}
        showSearch={{ optionFilterProp: 'label' }}
        maxTagCount="responsive"
        placeholder={t('monitor.report.factors')}
        aria-label={t('monitor.report.factors')}
        style={{ minWidth: 220, flex: 1 }}
        data-testid="report-factors"
      />
      <DatePicker.RangePicker
        showTime
        value={props.range}
        allowClear={false}
        onChange={(value) => {
          if (value?.[0] && value[1]) props.onRange([value[0], value[1]]);
        }}
        presets={[
          { label: t('monitor.report.today'), value: () => [dayjs().startOf('day'), dayjs()] },
          {
            label: t('monitor.report.lastWeek'),
            value: () => [dayjs().subtract(7, 'day').startOf('day'), dayjs()],
          },
          {
            label: t('monitor.report.lastMonth'),
            value: () => [dayjs().subtract(30, 'day').startOf('day'), dayjs()],
          },
          {
            label: t('monitor.report.thisYear'),
            value: () => [dayjs().startOf('year'), dayjs()],
          },
        ]}
        data-testid="report-range"
      />
      <Segmented<ReportBucket>
        value={props.bucket}
        onChange={props.onBucket}
        options={REPORT_BUCKETS.map((bucket) => ({
          value: bucket,
          label: t(`monitor.report.buckets.${bucket}`),
        }))}
        data-testid="report-bucket"
      />
    </Flex>
  );
}
