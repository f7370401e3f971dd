import {
  CodeOutlined,
  ExportOutlined,
  FilePdfOutlined,
  SafetyCertificateOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import {
  PUBLIC_TRACE_PAGES,
  TOAST_MS,
  TRACE_LABEL_COPIES_DEFAULT,
  TRACE_LABEL_COPIES_MAX,
  type TraceBatch,
  type TraceChainView,
} from '@shuili/contract';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  InputNumber,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { feedback } from '../../../lib/feedback';
import { formatDate } from '../../../lib/format';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { ChainTimelines } from './ChainTimelines';
import {
  hasTarget,
  resumeApi,
  useTraceBatches,
  useTraceChain,
  type ResumeTarget,
} from './resume-api';

/** The deep link of a batch: ?code= for a package batch, ?batch= for a harvest or a process. */
export function resumeSearch(batch: Pick<TraceBatch, 'kind' | 'number'>): string {
  const key = batch.kind === 'package' ? 'code' : 'batch';
  return `?${key}=${encodeURIComponent(batch.number)}`;
}

function targetOf(search: URLSearchParams): ResumeTarget {
  const kind = search.get('kind');
  return {
    code: search.get('code') ?? undefined,
    batch: search.get('batch') ?? undefined,
    id: search.get('id') ?? undefined,
    kind: kind === 'harvest' || kind === 'process' || kind === 'package' ? kind : undefined,
  };
}

/** The search box: a number as typed (Enter), or one of the batches offered as one types. */
function BatchSearch({ onPick }: { onPick: (search: string) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const batches = useTraceBatches(typed.trim());
  const options = (batches.data ?? []).map((batch) => ({
    value: resumeSearch(batch),
    label: (
      <Flex justify="space-between" gap={8} data-testid={`batch-option-${batch.kind}`}>
        <span>
          <Tag>{t(`trace.resume.kinds.${batch.kind}`)}</Tag>
          {batch.number}
          {batch.recalled && (
            <Tag color="red" style={{ marginInlineStart: 8 }}>
              {t('trace.resume.recalled')}
            </Tag>
          )}
        </span>
        <Typography.Text type="secondary">{batch.product}</Typography.Text>
      </Flex>
    ),
  }));
  return (
    <AutoComplete
      options={options}
      value={typed}
      onChange={(value: string) => setTyped(value.startsWith('?') ? '' : value)}
      onSelect={(value: string) => onPick(value)}
      style={{ width: 'min(560px, 100%)' }}
      popupMatchSelectWidth
      data-testid="resume-search"
    >
      <Input.Search
        placeholder={t('trace.resume.searchPlaceholder')}
        enterButton={t('trace.resume.search')}
        allowClear
        onSearch={(value) => {
          const text = value.trim();
          if (text) onPick(`?batch=${encodeURIComponent(text)}`);
        }}
        data-testid="resume-search-input"
      />
    </AutoComplete>
  );
}

/** The batches to start from when none is chosen: the newest of every kind. */
function RecentBatches({ onPick }: { onPick: (search: string) => void }) {
  const { t } = useTranslation();
  const recent = useTraceBatches('');
  if (recent.isLoading) return <Spin />;
  if (!recent.data?.length) return <Empty description={t('trace.resume.noBatches')} />;
  return (
    <Card size="small" title={t('trace.resume.recent')} data-testid="resume-recent">
      <Flex vertical gap={4}>
        {recent.data.map((batch) => (
          <Flex key={`${batch.kind}-${batch.id}`} gap={8} align="center" wrap>
            <Tag>{t(`trace.resume.kinds.${batch.kind}`)}</Tag>
            <Typography.Link onClick={() => onPick(resumeSearch(batch))}>
              {batch.number}
            </Typography.Link>
            <Typography.Text type="secondary">
              {[batch.product, batch.lot, formatDate(batch.at, 'YYYY-MM-DD')]
                .filter(Boolean)
                .join(' · ')}
            </Typography.Text>
            {batch.recalled && <Tag color="red">{t('trace.resume.recalled')}</Tag>}
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}

/** A download button: busy while it runs, the server's message as a toast when it fails. */
function useDownload() {
  const { t } = useTranslation();
  const [running, setRunning] = useState<string | undefined>();
  const run = async (key: string, download: () => Promise<string>) => {
    setRunning(key);
    try {
      const name = await download();
      feedback.success(t('trace.resume.downloaded', { name }), TOAST_MS.success / 1000);
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : String(error), TOAST_MS.error / 1000);
    } finally {
      setRunning(undefined);
    }
  };
  return { running, run };
}

/** The chain's heading: what it starts from, its recall, and its downloads. */
function ChainHeader({ view, target }: { view: TraceChainView; target: ResumeTarget }) {
  const { t } = useTranslation();
  const { running, run } = useDownload();
  const [copies, setCopies] = useState(TRACE_LABEL_COPIES_DEFAULT);
  const { start } = view;
  const pkg =
    start.kind === 'package' ? view.packages.find((one) => one.id === start.id) : undefined;
  const node =
    start.kind === 'harvest'
      ? view.harvests.find((one) => one.id === start.id)
      : start.kind === 'process'
        ? view.processes.find((one) => one.id === start.id)
        : pkg;
  const plant = view.plants[0];
  const recalled = node?.recalled === true;
  return (
    <Card size="small" data-testid="resume-header">
      <Flex vertical gap={12}>
        <Flex gap={8} align="center" wrap>
          <Tag color="blue">{t(`trace.resume.kinds.${start.kind}`)}</Tag>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="resume-number">
            {start.number}
          </Typography.Title>
          {plant && (
            <Typography.Text type="secondary">
              {plant.cropName} · {plant.variety}
            </Typography.Text>
          )}
          {recalled && (
            <Tag color="red" data-testid="resume-start-recalled">
              {t('trace.resume.recalled')}
            </Tag>
          )}
        </Flex>
        {recalled && (
          <Alert
            type="error"
            showIcon
            data-testid="resume-recall-alert"
            title={t('trace.resume.recallAlert')}
            description={node?.recallReason ?? undefined}
          />
        )}
        <Space wrap>
          <Button
            icon={<CodeOutlined />}
            loading={running === 'epcis'}
            onClick={() => void run('epcis', () => resumeApi.epcis(target))}
            data-testid="resume-epcis"
          >
            {t('trace.resume.epcis')}
          </Button>
          {pkg && (
            <>
              <Space.Compact>
                <InputNumber
                  min={1}
                  max={TRACE_LABEL_COPIES_MAX}
                  value={copies}
                  onChange={(value) => setCopies(value ?? TRACE_LABEL_COPIES_DEFAULT)}
                  aria-label={t('trace.resume.copies')}
                  style={{ width: 90 }}
                  data-testid="resume-copies"
                />
                <Button
                  icon={<TagsOutlined />}
                  loading={running === 'labels'}
                  onClick={() => void run('labels', () => resumeApi.labels(pkg.id, copies))}
                  data-testid="resume-labels"
                >
                  {t('trace.resume.labels')}
                </Button>
              </Space.Compact>
              <Button
                icon={<SafetyCertificateOutlined />}
                loading={running === 'certificate'}
                disabled={pkg.recalled}
                title={pkg.recalled ? t('trace.resume.noCertificate') : undefined}
                onClick={() => void run('certificate', () => resumeApi.certificate(pkg.id))}
                data-testid="resume-certificate"
              >
                {t('trace.resume.certificate')}
              </Button>
              <Button
                icon={<ExportOutlined />}
                href={`${PUBLIC_TRACE_PAGES.home}?code=${encodeURIComponent(pkg.traceCode)}`}
                target="_blank"
                rel="noopener"
                data-testid="resume-public"
              >
                {t('trace.resume.publicPage')}
              </Button>
            </>
          )}
          {!pkg && view.packages.length > 0 && (
            <Typography.Text type="secondary">
              <FilePdfOutlined /> {t('trace.resume.printFromPackage')}
            </Typography.Text>
          )}
        </Space>
      </Flex>
    </Card>
  );
}

/**
 * Spec /traceabilitySystem/resume: the whole chain of one batch, backwards to its plot, planting
 * and farm work (each pre-harvest interval respected or not) and forwards to its processes,
 * package batches and shipments (with temperatures), recalled nodes in red; its EPCIS export,
 * and for a package batch its labels, certificate and public page. Other screens link here
 * with ?code= (a trace code) or ?batch= (a batch or process number).
 */
export function TraceResumePage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const target = targetOf(search);
  const chain = useTraceChain(target);
  const pick = (query: string) => setSearch(new URLSearchParams(query));
  return (
    <Flex vertical gap={16} data-testid="trace-resume">
      <Card size="small">
        <Flex gap={12} align="center" wrap>
          <BatchSearch onPick={pick} />
          {hasTarget(target) && (
            <Button type="link" onClick={() => setSearch(new URLSearchParams())}>
              {t('trace.resume.recentLink')}
            </Button>
          )}
        </Flex>
      </Card>
      {!hasTarget(target) && <RecentBatches onPick={pick} />}
      {hasTarget(target) && chain.isLoading && <Spin />}
      {hasTarget(target) && chain.error && (
        <Alert type="warning" showIcon title={chain.error.message} data-testid="resume-error" />
      )}
      {hasTarget(target) && chain.data && (
        <>
          <ChainHeader view={chain.data} target={target} />
          <ChainTimelines view={chain.data} />
        </>
      )}
    </Flex>
  );
}
