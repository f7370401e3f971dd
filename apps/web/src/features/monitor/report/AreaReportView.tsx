import { DownloadOutlined } from '@ant-design/icons';
import {
  AREAS,
  areaOf,
  TOAST_MS,
  type AreaDef,
  type AreaReportQuery,
  type ReportBucket,
} from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Flex, Row, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { DEFAULT_DEVICES, defaultFactors, factorChoices } from './report-choices';
import { reportApi } from './report-api';
import { ReportChart } from './ReportChart';
import { ReportControls } from './ReportControls';
import { ReportStats } from './ReportStats';
import { ReportTable } from './ReportTable';
import { useReportDevices, type ReportDevice } from './use-report-devices';

export interface AreaReportViewProps {
  /** The screen's area; undefined: the cross-area report (/deviceDataReport). */
  area: AreaDef | undefined;
  title: ReactNode;
}

/**
 * The data report: devices, factors, range and bucket; the series' statistics, and chart and
 * table side by side; an xlsx export of the same. It opens on the area's first devices and
 * report factors over the last week by hour, so it shows something before anything is picked.
 */
export function AreaReportView({ area: fixedArea, title }: AreaReportViewProps) {
  const { t } = useTranslation();
  const [areaCode, setAreaCode] = useState(fixedArea?.code ?? AREAS[0]!.code);
  const area = fixedArea ?? areaOf(areaCode);
  const [search, setSearch] = useState('');
  const found = useReportDevices(area, search);
  // Chosen devices stay chosen (with their thing models) across searches and, across areas, on
  // the cross-area report. Undefined until the reader picks: the area's first devices then.
  const [picked, setPicked] = useState<ReportDevice[] | undefined>();
  const [pickedKeys, setPickedKeys] = useState<string[] | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(7, 'day').startOf('hour'),
    dayjs(),
  ]);
  const [bucket, setBucket] = useState<ReportBucket>('hour');
  const [exporting, setExporting] = useState(false);

  const chosen = useMemo(
    () => picked ?? (search ? [] : (found.data ?? []).slice(0, DEFAULT_DEVICES)),
    [picked, search, found.data],
  );
  const reportFactors = useMemo(() => area?.reportFactors ?? [], [area]);
  const factors = useMemo(
    () =>
      factorChoices(
        chosen.map((device) => device.thingModel),
        reportFactors,
        area?.derivedFactors,
      ),
    [chosen, reportFactors, area],
  );
  const keys = (pickedKeys ?? defaultFactors(factors, reportFactors)).filter((key) =>
    factors.some((property) => property.key === key),
  );
  const options = useMemo(() => {
    const all = new Map(chosen.map((device) => [device.id, device]));
    for (const device of found.data ?? []) if (!all.has(device.id)) all.set(device.id, device);
    return [...all.values()];
  }, [chosen, found.data]);

  const query: AreaReportQuery | undefined =
    chosen.length > 0 && keys.length > 0
      ? {
          ...(fixedArea ? { area: fixedArea.code } : {}),
          deviceIds: chosen.map((device) => device.id).join(','),
          keys: keys.join(','),
          start: range[0].toISOString(),
          end: range[1].toISOString(),
          bucket,
        }
      : undefined;
  const report = useQuery({
    queryKey: ['monitor', 'report', query],
    queryFn: ({ signal }) => reportApi.report(query!, signal),
    enabled: !!query,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const exportXlsx = async () => {
    if (!query) return;
    setExporting(true);
    try {
      const name = await reportApi.exportXlsx(query);
      feedback.success(t('monitor.report.exported', { name }), TOAST_MS.success / 1000);
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : String(error), TOAST_MS.error / 1000);
    } finally {
      setExporting(false);
    }
  };

  const data = query ? report.data : undefined;
  return (
    <Card
      title={title}
      extra={
        <Button
          icon={<DownloadOutlined />}
          disabled={!query || !report.data}
          loading={exporting}
          onClick={() => void exportXlsx()}
          data-testid="report-export"
        >
          {t('monitor.report.export')}
        </Button>
      }
      data-testid="area-report"
      data-area={fixedArea?.code ?? 'all'}
    >
      <Flex vertical gap={16}>
        <ReportControls
          fixedArea={fixedArea}
          area={area}
          onArea={(code) => {
            setAreaCode(code);
            setSearch('');
          }}
          deviceOptions={options}
          deviceIds={chosen.map((device) => device.id)}
          onDevices={(ids) => {
            const byId = new Map(options.map((device) => [device.id, device]));
            setPicked(ids.flatMap((id) => byId.get(id) ?? []));
          }}
          onSearchDevices={setSearch}
          searching={found.isFetching}
          factorOptions={factors}
          keys={keys}
          onKeys={setPickedKeys}
          range={range}
          onRange={setRange}
          bucket={bucket}
          onBucket={setBucket}
        />
        {report.error && query && (
          <Alert
            type="warning"
            showIcon
            message={report.error.message}
            data-testid="report-error"
          />
        )}
        {!query ? (
          <Empty description={t('monitor.report.pickSomething')} />
        ) : !data ? (
          report.isFetching && <Spin />
        ) : (
          <Spin spinning={report.isFetching}>
            <Flex vertical gap={16}>
              <ReportStats report={data} />
              <Row gutter={[16, 16]}>
                <Col xs={24} xl={12}>
                  <ReportChart report={data} />
                </Col>
                <Col xs={24} xl={12}>
                  <ReportTable report={data} />
                </Col>
              </Row>
            </Flex>
          </Spin>
        )}
      </Flex>
    </Card>
  );
}
