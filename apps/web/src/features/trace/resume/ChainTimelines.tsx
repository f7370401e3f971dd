import {
  TRACE_GROWTH_STAGES,
  TRACE_PROCESS_TYPES,
  TRACE_SCREENS,
  TRACE_WORK_TYPES,
  type Label,
  type TraceChainView,
} from '@shuili/contract';
import { Card, Col, Empty, Flex, Row, Tag, Timeline, Typography, type TimelineProps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { useLabel } from '../../../resource/field-label';
import styles from './TraceResume.module.css';

type View = TraceChainView;
type TimelineItemType = NonNullable<TimelineProps['items']>[number];
type Translate = TFunction;

const optionLabel = (options: ReadonlyArray<{ value: string; label: Label }>, value: string) =>
  options.find((option) => option.value === value)?.label;
const time = (value: string | null | undefined) => formatDate(value);
const amount = (value: number, unit: string) => `${Math.round(value * 1000) / 1000} ${unit}`;

/** One node of a timeline: its kind, its number linking to its entity screen, figures, state. */
function Node({
  kind,
  name,
  screen,
  at,
  figures,
  recalled,
  extra,
  testId,
}: {
  kind: string;
  name: ReactNode;
  screen: string;
  at?: string | null;
  figures: ReactNode[];
  recalled?: boolean;
  extra?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={recalled ? styles.recalledNode : undefined}
      data-testid={testId}
      data-recalled={recalled ? 'true' : undefined}
    >
      <Flex gap={8} wrap align="baseline">
        <Typography.Text type="secondary">{kind}</Typography.Text>
        <Link to={screen}>
          <Typography.Text strong>{name}</Typography.Text>
        </Link>
        {recalled && (
          <Tag color="red" data-testid="resume-recalled-tag">
            {t('trace.resume.recalled')}
          </Tag>
        )}
        {extra}
      </Flex>
      {at && <div className={styles.time}>{time(at)}</div>}
      {figures.filter(Boolean).map((figure, index) => (
        <div key={index} className={styles.figure}>
          {figure}
        </div>
      ))}
    </div>
  );
}

const item = (key: string, content: ReactNode, recalled = false): TimelineItemType => ({
  key,
  content,
  ...(recalled ? { color: 'red' } : {}),
});

/** Plot → planting → farm work and growth → harvest, for each harvest batch the chain comes from. */
function backwardItems(view: View, t: Translate, pick: (label: Label) => string) {
  const items: TimelineItemType[] = [];
  for (const planting of view.plantings) {
    const plot = view.plots.find((one) => one.id === planting.plotId);
    const base = view.bases.find((one) => one.id === plot?.baseId);
    const producer = view.producers.find((one) => one.id === base?.producerId);
    const plant = view.plants.find((one) => one.id === planting.plantId);
    items.push(
      item(
        `plot-${planting.id}`,
        <Node
          kind={t('trace.resume.plot')}
          name={plot?.name}
          screen={TRACE_SCREENS.area}
          testId="resume-node-plot"
          figures={[
            [base?.name, base?.village].filter(Boolean).join(' · '),
            producer && t('trace.resume.producer', { name: producer.name, code: producer.code }),
            plot?.areaMu != null && t('trace.resume.areaMu', { value: plot.areaMu }),
          ]}
        />,
      ),
      item(
        `planting-${planting.id}`,
        <Node
          kind={t('trace.resume.planting')}
          name={planting.plantingCode ?? plant?.variety}
          screen={TRACE_SCREENS.grow}
          at={planting.sownAt}
          testId="resume-node-planting"
          figures={[plant && `${plant.cropName} · ${plant.variety}`]}
        />,
      ),
    );
    const events = [
      ...view.farmwork
        .filter((one) => one.plantingId === planting.id)
        .map((work) => ({
          at: work.doneAt,
          node: item(
            `work-${work.id}`,
            <Node
              kind={pick(
                optionLabel(TRACE_WORK_TYPES, work.workType) ?? {
                  en: work.workType,
                  zh: work.workType,
                  tw: work.workType,
                },
              )}
              name={work.product ?? '—'}
              screen={TRACE_SCREENS.farmwork}
              at={work.doneAt}
              testId="resume-node-farmwork"
              figures={[
                work.dose != null && `${work.dose} ${work.doseUnit ?? ''}`.trim(),
                work.operator && t('trace.resume.operator', { name: work.operator }),
              ]}
              extra={
                work.phiDays != null && (
                  <Tag
                    color={work.respected === false ? 'red' : work.respected ? 'green' : 'default'}
                    data-testid="resume-phi"
                  >
                    {t(
                      work.respected === false
                        ? 'trace.resume.phiBroken'
                        : work.respected
                          ? 'trace.resume.phiRespected'
                          : 'trace.resume.phi',
                      { days: work.phiDays, date: formatDate(work.allowedFrom, 'YYYY-MM-DD') },
                    )}
                  </Tag>
                )
              }
            />,
          ),
        })),
      ...view.growthRecords
        .filter((one) => one.plantingId === planting.id)
        .map((record) => ({
          at: record.recordedAt,
          node: item(
            `growth-${record.id}`,
            <Node
              kind={t('trace.resume.growth')}
              name={pick(
                optionLabel(TRACE_GROWTH_STAGES, record.stage) ?? {
                  en: record.stage,
                  zh: record.stage,
                  tw: record.stage,
                },
              )}
              screen={TRACE_SCREENS.grow}
              at={record.recordedAt}
              testId="resume-node-growth"
              figures={[record.note]}
            />,
          ),
        })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    items.push(...events.map((event) => event.node));
    for (const harvest of view.harvests.filter((one) => one.plantingId === planting.id))
      items.push(harvestItem(view, harvest.id, t));
  }
  return items;
}

function harvestItem(view: View, harvestId: string, t: Translate) {
  const harvest = view.harvests.find((one) => one.id === harvestId)!;
  return item(
    `harvest-${harvest.id}`,
    <Node
      kind={t('trace.resume.harvest')}
      name={harvest.batchNo}
      screen={TRACE_SCREENS.harvest}
      at={harvest.harvestedAt}
      recalled={harvest.recalled}
      testId="resume-node-harvest"
      figures={[
        t('trace.resume.harvestFigures', {
          quantity: amount(harvest.quantity, harvest.unit),
          taken: amount(harvest.takenQuantity, harvest.unit),
        }),
        harvest.grade && t('trace.resume.grade', { grade: harvest.grade }),
        harvest.recallReason && t('trace.resume.recallReason', { reason: harvest.recallReason }),
      ]}
    />,
    harvest.recalled,
  );
}

/** Harvest → processes → package batches, each followed by its shipments. */
function forwardItems(view: View, t: Translate, pick: (label: Label) => string) {
  const items: TimelineItemType[] = view.harvests.map((harvest) =>
    harvestItem(view, harvest.id, t),
  );
  for (const process of view.processes)
    items.push(
      item(
        `process-${process.id}`,
        <Node
          kind={pick(
            optionLabel(TRACE_PROCESS_TYPES, process.processType) ?? {
              en: process.processType,
              zh: process.processType,
              tw: process.processType,
            },
          )}
          name={process.processNo}
          screen={TRACE_SCREENS.process}
          at={process.endedAt ?? process.startedAt}
          recalled={process.recalled}
          testId="resume-node-process"
          figures={[
            t('trace.resume.processFigures', {
              input: amount(process.inputQuantity, process.unit),
              output:
                process.outputQuantity == null ? '—' : amount(process.outputQuantity, process.unit),
              yield: Math.round(process.expectedYield * 100),
            }),
            process.recallReason &&
              t('trace.resume.recallReason', { reason: process.recallReason }),
          ]}
        />,
        process.recalled,
      ),
    );
  for (const pkg of view.packages) {
    items.push(
      item(
        `package-${pkg.id}`,
        <Node
          kind={t('trace.resume.package')}
          name={pkg.traceCode}
          screen={TRACE_SCREENS.package}
          at={pkg.packedAt}
          recalled={pkg.recalled}
          testId="resume-node-package"
          figures={[
            t('trace.resume.packageFigures', {
              n: pkg.packageCount,
              net: amount(pkg.netQuantity, pkg.unit),
              shipped: pkg.shippedCount,
            }),
            pkg.lot && t('trace.resume.lot', { lot: pkg.lot }),
            t('trace.resume.scans', { n: pkg.scanCount }),
            pkg.recallReason && t('trace.resume.recallReason', { reason: pkg.recallReason }),
          ]}
        />,
        pkg.recalled,
      ),
    );
    for (const shipment of view.shipments.filter((one) => one.packageId === pkg.id))
      items.push(
        item(
          `shipment-${shipment.id}`,
          <Node
            kind={t('trace.resume.shipment')}
            name={`${shipment.fromPlace} → ${shipment.toPlace}`}
            screen={TRACE_SCREENS.logistics}
            at={shipment.departedAt}
            recalled={shipment.recalled}
            testId="resume-node-shipment"
            figures={[
              t('trace.resume.shipmentFigures', { n: shipment.packageCount }),
              [shipment.carrier, shipment.vehicle].filter(Boolean).join(' · '),
              shipment.arrivedAt && t('trace.resume.arrived', { at: time(shipment.arrivedAt) }),
              shipment.minCelsius != null &&
                t('trace.resume.temperatures', {
                  min: shipment.minCelsius,
                  max: shipment.maxCelsius,
                  readings: shipment.temperatures.length,
                }),
            ]}
          />,
          shipment.recalled,
        ),
      );
  }
  return items;
}

/** The chain as two timelines: backwards to the plot, forwards to the shipments. */
export function ChainTimelines({ view }: { view: View }) {
  const { t } = useTranslation();
  const pick = useLabel();
  const backward = backwardItems(view, t, pick);
  const forward = forwardItems(view, t, pick);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('trace.resume.backward')} data-testid="resume-backward">
          {backward.length ? <Timeline items={backward} /> : <Empty />}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('trace.resume.forward')} data-testid="resume-forward">
          {forward.length ? <Timeline items={forward} /> : <Empty />}
        </Card>
      </Col>
    </Row>
  );
}
