import type { Lang, PublicTrace, PublicTraceOrigin, PublicTraceSection } from '@shuili/contract';
import { SUSPICIOUS_CLIENTS_PER_DAY, SUSPICIOUS_SCANS } from '@shuili/contract';
import { h, type Child } from './dom';
import { LOCALES, say, type Key } from './strings';

/** The batch's page: recall banner first, product, origin, the timeline, sensors, scans. */
export function traceView(lang: Lang, trace: PublicTrace): HTMLElement {
  const text = (key: Key, params?: Record<string, string | number>) => say(lang, key, params);
  const dateFormat = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium' });
  const date = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '');
  const numberFormat = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 1 });
  const num = (value: number) => numberFormat.format(value);
  const shows = (section: PublicTraceSection) => trace.page.sections[section] !== false;
  const field = (label: string, value: Child) =>
    value ? h('div', { class: 'row' }, h('dt', null, label), h('dd', null, value)) : null;
  const card = (title: string, ...children: Child[]) =>
    h('section', { class: 'card' }, h('h2', null, title), ...children);

  const recall = trace.recall.recalled
    ? h(
        'div',
        { class: 'recall', role: 'alert' },
        h('strong', null, text('recalled')),
        trace.recall.at
          ? h('div', null, text('recalledOn', { date: date(trace.recall.at) }))
          : null,
        trace.recall.reason
          ? h('div', null, text('reason', { reason: trace.recall.reason }))
          : null,
      )
    : null;

  const product = trace.product;
  const productCard = product
    ? card(
        text('product'),
        h('p', { class: 'product-name' }, `${product.cropName} · ${product.variety}`),
        h(
          'dl',
          null,
          field(
            text('netQuantity'),
            text('packages', {
              count: product.packageCount,
              quantity: num(product.netQuantity),
              unit: product.unit,
            }),
          ),
          field(text('lot'), product.lot),
          field(text('gtin'), product.gtin),
          field(text('packedAt'), date(product.packedAt)),
          field(text('bestBefore'), date(product.bestBefore)),
        ),
      )
    : null;

  const producer = trace.producer;
  const producerCard = producer
    ? card(
        text('producer'),
        h(
          'dl',
          null,
          field(text('producer'), producer.name),
          field(text('producerCode'), producer.code),
          field(text('commitment'), producer.commitment),
        ),
      )
    : null;

  const originCards = trace.origins
    .filter((origin) => origin.base || origin.plot)
    .map((origin) =>
      card(
        text('origin'),
        h(
          'dl',
          null,
          field(text('base'), origin.base?.name),
          field(text('village'), origin.base?.village),
          field(
            text('plot'),
            origin.plot
              ? origin.plot.areaMu !== null
                ? `${origin.plot.name} (${text('areaMu', { area: num(origin.plot.areaMu) })})`
                : origin.plot.name
              : null,
          ),
          field(text('variety'), `${origin.cropName} · ${origin.variety}`),
          field(text('sownAt'), date(origin.sownAt)),
          field(text('harvestedAt'), date(origin.harvest.harvestedAt)),
          field(text('grade'), origin.harvest.grade),
        ),
      ),
    );

  const sensorCards = shows('sensors')
    ? trace.origins.map((origin) => sensorCard(origin)).filter((one) => one !== null)
    : [];

  function sensorCard(origin: PublicTraceOrigin): HTMLElement | null {
    const sensors = origin.sensors;
    if (!sensors) return null;
    const figure = (label: string, value: string) =>
      h('div', { class: 'figure' }, h('span', null, label), h('b', null, value));
    const figures = [
      sensors.rainfall
        ? figure(text('rainfall'), text('rainfallValue', { total: num(sensors.rainfall.totalMm) }))
        : null,
      sensors.temperature
        ? figure(
            text('temperature'),
            text('temperatureValue', {
              min: num(sensors.temperature.min),
              mean: num(sensors.temperature.mean),
              max: num(sensors.temperature.max),
            }),
          )
        : null,
      sensors.soilMoisture
        ? figure(
            text('soilMoisture'),
            text('soilMoistureValue', { mean: num(sensors.soilMoisture.mean) }),
          )
        : null,
    ].filter((one) => one !== null);
    return h(
      'section',
      { class: 'card sensors', 'data-source': 'sensor' },
      h(
        'h2',
        null,
        text('sensors'),
        ' ',
        h('span', { class: 'badge sensor' }, text('sensorBadge')),
      ),
      h(
        'p',
        { class: 'muted' },
        text('sensorPeriod', {
          from: date(sensors.from),
          to: date(sensors.to),
          devices: sensors.devices,
        }),
      ),
      figures.length > 0 ? h('div', null, ...figures) : h('p', null, text('noSensorData')),
    );
  }

  const timeline = timelineOf(trace, text, date, num, shows);

  const scans = trace.scans;
  const scanNote = h(
    'footer',
    { class: scans.suspicious ? 'scans suspicious' : 'scans' },
    scans.suspicious
      ? h(
          'p',
          { role: 'alert' },
          h('strong', null, text('suspicious')),
          ' (',
          scans.reason === 'clients'
            ? text('suspiciousClients', { limit: SUSPICIOUS_CLIENTS_PER_DAY })
            : text('suspiciousScans', { limit: SUSPICIOUS_SCANS }),
          ')',
        )
      : null,
    shows('scans')
      ? h('p', null, text('scans', { count: scans.count, date: date(scans.firstAt) }))
      : null,
    trace.page.contact ? h('p', null, text('contact', { contact: trace.page.contact })) : null,
    h('p', { class: 'code' }, trace.code.replace(/(.{4})(?=.)/g, '$1-')),
  );

  return h(
    'main',
    null,
    recall,
    productCard,
    producerCard,
    ...originCards,
    timeline,
    ...sensorCards,
    scanNote,
  );
}

interface Event {
  at: string;
  title: string;
  lines: Child[];
  entered: boolean;
  warn?: boolean;
}

function timelineOf(
  trace: PublicTrace,
  text: (key: Key, params?: Record<string, string | number>) => string,
  date: (iso: string | null) => string,
  num: (value: number) => string,
  shows: (section: PublicTraceSection) => boolean,
): HTMLElement | null {
  const events: Event[] = [];
  const workKey = {
    fertilizing: 'workFertilizing',
    spraying: 'workSpraying',
    irrigation: 'workIrrigation',
    weeding: 'workWeeding',
    other: 'workOther',
  } as const;
  const processKey = {
    washing: 'processWashing',
    sorting: 'processSorting',
    drying: 'processDrying',
    milling: 'processMilling',
    cutting: 'processCutting',
    other: 'processOther',
  } as const;
  for (const origin of trace.origins) {
    events.push({
      at: origin.sownAt,
      title: text('eventSown', { plot: origin.plot?.name ?? '' }),
      lines: [`${origin.cropName} · ${origin.variety}`],
      entered: true,
    });
    if (shows('farmwork'))
      for (const work of origin.farmwork) {
        const respected = work.respected;
        events.push({
          at: work.doneAt,
          title: [text(workKey[work.workType]), work.product].filter(Boolean).join(' · '),
          lines: [
            work.dose !== null
              ? text('dose', { dose: num(work.dose), unit: work.doseUnit ?? '' })
              : null,
            work.phiDays !== null && respected !== null
              ? h(
                  'span',
                  { class: respected ? 'ok' : 'bad' },
                  respected
                    ? text('phiRespected', { days: work.phiDays })
                    : text('phiNotRespected', { days: work.phiDays, date: date(work.allowedFrom) }),
                )
              : null,
          ],
          entered: true,
          warn: respected === false,
        });
      }
    events.push({
      at: origin.harvest.harvestedAt,
      title: text('eventHarvest', {
        batch: origin.harvest.batchNo ?? '',
        quantity: num(origin.harvest.quantity),
        unit: origin.harvest.unit,
      }),
      lines: [],
      entered: true,
    });
  }
  if (shows('processing'))
    for (const process of trace.processing)
      events.push({
        at: process.startedAt,
        title: [text(processKey[process.processType]), process.processNo]
          .filter(Boolean)
          .join(' · '),
        lines: [
          process.outputQuantity !== null
            ? text('processed', {
                input: num(process.inputQuantity),
                output: num(process.outputQuantity),
                unit: process.unit,
              })
            : null,
        ],
        entered: true,
      });
  if (trace.product)
    events.push({
      at: trace.product.packedAt,
      title: text('eventPacked', { count: trace.product.packageCount }),
      lines: [trace.product.lot],
      entered: true,
    });
  if (shows('logistics'))
    for (const shipment of trace.shipments) {
      events.push({
        at: shipment.departedAt,
        title: text('eventShipped', { from: shipment.fromPlace, to: shipment.toPlace }),
        lines: [
          shipment.carrier ? text('carrier', { carrier: shipment.carrier }) : null,
          shipment.temperature
            ? text('shipTemperature', {
                min: num(shipment.temperature.min),
                max: num(shipment.temperature.max),
              })
            : null,
        ],
        entered: true,
      });
      if (shipment.arrivedAt)
        events.push({
          at: shipment.arrivedAt,
          title: text('eventArrived', { to: shipment.toPlace }),
          lines: [],
          entered: true,
        });
    }
  if (events.length === 0) return null;
  events.sort((a, b) => a.at.localeCompare(b.at));
  return h(
    'section',
    { class: 'card' },
    h('h2', null, text('timeline')),
    h(
      'ol',
      { class: 'timeline' },
      ...events.map((event) =>
        h(
          'li',
          { class: event.warn ? 'warn' : undefined, 'data-source': 'entered' },
          h('time', { datetime: event.at }, date(event.at)),
          h('div', { class: 'title' }, event.title),
          ...event.lines.filter(Boolean).map((line) => h('div', { class: 'line' }, line)),
          h('span', { class: 'badge entered' }, text('entered')),
        ),
      ),
    ),
  );
}
