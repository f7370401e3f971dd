/**
 * A batch's chain as GS1 EPCIS 2.0 events (JSON-LD), for exchange with other traceability
 * systems (docs/traceability.md "Codes", issue 21 "Exchange"):
 *
 * - a harvest → ObjectEvent, action ADD, bizStep `commissioning`, with its lot data (ilmd);
 * - a process → TransformationEvent (no action) with a transformationID, its inputs and output;
 * - a package batch → AggregationEvent, action ADD, bizStep `packing`, the batch as parentID and
 *   what went into it as childQuantityList;
 * - a shipment → ObjectEvent, action OBSERVE, bizStep `shipping` (and `receiving` once arrived),
 *   with the temperatures recorded on the way as a sensorElementList;
 * - a recall → ObjectEvent, action OBSERVE, disposition `recalled`.
 *
 * Produce is identified at class level throughout (quantityList / childQuantityList with an
 * epcClass): a lot with a GTIN as a GS1 Digital Link of GTIN and batch
 * (`https://id.gs1.org/01/{GTIN-14}/10/{lot}`), one without a GTIN (or a lot the Digital Link
 * cannot carry) under the exporter's own namespace (`idBase`). Quantities go out in UN/ECE
 * Recommendation 20 units (KGM, GRM, TNE, LTR …; 斤 and 两 converted to kg and g); a unit that
 * is a count (箱, 袋, 个, pcs …) goes out without uom, which EPCIS reads as a number of items.
 *
 * Pure: the caller reads the chain from the database into a TraceChain; nothing here does I/O.
 */
import { buildDigitalLink, checkDigitalLinkParts, gs1Date, GS1_RESOLVER } from './gs1';

// ---------------------------------------------------------------------------------------------
// The chain, as plain data

/**
 * A place: a local key, unique in the tenant for its kind (e.g. `base-2`, `area-7`,
 * `shipment-4-to`), made into a URI under `idBase`; or a URI already (urn:epc:id:sgln:…,
 * https://…), used as it is.
 */
export interface TraceChainPlace {
  id: string;
  name?: string;
}

/** A recall of a harvest batch, process or package batch. */
export interface TraceChainRecall {
  /** ISO 8601 with zone offset, e.g. 2026-06-03T09:00:00+08:00. */
  at: string;
  reason?: string;
}

/** A lot another step refers to: enough to name its class without looking it up. */
export interface TraceChainLotRef {
  kind: 'harvest' | 'process';
  /** The harvest's or process's id (local key). */
  id: string;
  /** Its batch number (harvest) or process number (process). */
  lot: string;
  /** The product GTIN of the lot, when it has one. */
  gtin?: string;
}

export interface TraceChainHarvest {
  id: string;
  /** Batch number (generated, e.g. H20260601-7KQ2). */
  batchNo: string;
  /** Crop and variety, as shown. */
  product: string;
  /** The variety's product GTIN, when it has one. */
  gtin?: string;
  /** ISO 8601 with zone offset. */
  harvestedAt: string;
  quantity: number;
  /** As typed (kg by default). */
  unit: string;
  /** The plot (trace_area): the read point. */
  plot: TraceChainPlace;
  /** The farm (trace_base): the business location (the plot's when absent). */
  base?: TraceChainPlace;
  recall?: TraceChainRecall;
}

export interface TraceChainProcessInput {
  harvest: TraceChainLotRef;
  quantity: number;
  unit: string;
}

export interface TraceChainProcess {
  id: string;
  processNo: string;
  /** washing, sorting, drying, milling, cutting, other. */
  type: string;
  startedAt?: string;
  /** When the output exists (ISO 8601 with zone offset): the event's time. */
  endedAt: string;
  place?: TraceChainPlace;
  inputs: TraceChainProcessInput[];
  output: { quantity: number; unit: string; gtin?: string };
  recall?: TraceChainRecall;
}

export interface TraceChainPackage {
  id: string;
  traceCode: string;
  /** GTIN-14 of the packed product (the package's, else its variety's). */
  gtin?: string;
  /** Batch/lot printed on the package. */
  lot: string;
  /** AI 21 of the batch's Digital Link; the trace code when absent. */
  serial?: string;
  /** What was packed: one harvest batch or one process. */
  source: TraceChainLotRef;
  packageCount: number;
  /** Net quantity per package, in `unit`. */
  netQuantity: number;
  unit: string;
  packedAt: string;
  /** YYYY-MM-DD or an ISO time. */
  bestBefore?: string;
  place?: TraceChainPlace;
  recall?: TraceChainRecall;
}

export interface TraceChainTemperature {
  at: string;
  celsius: number;
}

export interface TraceChainShipment {
  id: string;
  /** The package batch shipped (one of TraceChain.packages). */
  packageId: string;
  packageCount: number;
  carrier?: string;
  vehicle?: string;
  from: TraceChainPlace;
  to: TraceChainPlace;
  departedAt: string;
  arrivedAt?: string;
  temperatures: TraceChainTemperature[];
}

/** One batch's chain, backwards and forwards (the resume), as the export reads it. */
export interface TraceChain {
  harvests: TraceChainHarvest[];
  processes: TraceChainProcess[];
  packages: TraceChainPackage[];
  shipments: TraceChainShipment[];
}

export interface EpcisExportOptions {
  /** The Digital Link resolver of class identifiers (GS1's by default). */
  resolver?: string;
  /**
   * The prefix of the exporter's own identifiers (places, events, transformations, lots without
   * a GTIN): a URN ending in ":" or an https address ending in "/", e.g.
   * `https://console.example.cn/api/trace/id/`. Default `urn:shuili:trace:`.
   */
  idBase?: string;
  /** The document's creationDate (now by default). */
  creationDate?: string;
  /** Sender of the document (a URI, e.g. the tenant's console address). */
  sender?: string;
}

// ---------------------------------------------------------------------------------------------
// The document

export const EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';

export interface EpcisQuantityElement {
  epcClass: string;
  quantity: number;
  uom?: string;
}

export interface EpcisSensorReport {
  type: string;
  value?: number;
  uom?: string;
  time?: string;
}

export interface EpcisSensorElement {
  sensorMetadata?: { startTime?: string; endTime?: string };
  sensorReport: EpcisSensorReport[];
}

export type EpcisSourceDest =
  { type: 'location'; source: string } | { type: 'location'; destination: string };

export interface EpcisEventBase {
  eventID: string;
  eventTime: string;
  eventTimeZoneOffset: string;
  bizStep?: string;
  disposition?: string;
  readPoint?: { id: string };
  bizLocation?: { id: string };
  sourceList?: { type: string; source: string }[];
  destinationList?: { type: string; destination: string }[];
  sensorElementList?: EpcisSensorElement[];
}

export interface EpcisObjectEvent extends EpcisEventBase {
  type: 'ObjectEvent';
  action: 'ADD' | 'OBSERVE' | 'DELETE';
  quantityList: EpcisQuantityElement[];
  ilmd?: Record<string, string>;
}

export interface EpcisTransformationEvent extends EpcisEventBase {
  type: 'TransformationEvent';
  transformationID: string;
  inputQuantityList: EpcisQuantityElement[];
  outputQuantityList: EpcisQuantityElement[];
  ilmd?: Record<string, string>;
}

export interface EpcisAggregationEvent extends EpcisEventBase {
  type: 'AggregationEvent';
  action: 'ADD' | 'OBSERVE' | 'DELETE';
  parentID: string;
  childQuantityList: EpcisQuantityElement[];
}

export type EpcisEvent = EpcisObjectEvent | EpcisTransformationEvent | EpcisAggregationEvent;

export interface EpcisDocument {
  '@context': string[];
  type: 'EPCISDocument';
  schemaVersion: '2.0';
  creationDate: string;
  sender?: string;
  epcisBody: { eventList: EpcisEvent[] };
}

// ---------------------------------------------------------------------------------------------
// Units and times

/** UN/ECE Recommendation 20 code and factor of a unit as typed; undefined for a count. */
const UNIT_CODES: Record<string, { uom: string; factor: number }> = {
  kg: { uom: 'KGM', factor: 1 },
  kgs: { uom: 'KGM', factor: 1 },
  公斤: { uom: 'KGM', factor: 1 },
  千克: { uom: 'KGM', factor: 1 },
  g: { uom: 'GRM', factor: 1 },
  克: { uom: 'GRM', factor: 1 },
  t: { uom: 'TNE', factor: 1 },
  tonne: { uom: 'TNE', factor: 1 },
  吨: { uom: 'TNE', factor: 1 },
  噸: { uom: 'TNE', factor: 1 },
  公吨: { uom: 'TNE', factor: 1 },
  斤: { uom: 'KGM', factor: 0.5 },
  市斤: { uom: 'KGM', factor: 0.5 },
  两: { uom: 'GRM', factor: 50 },
  兩: { uom: 'GRM', factor: 50 },
  lb: { uom: 'LBR', factor: 1 },
  l: { uom: 'LTR', factor: 1 },
  升: { uom: 'LTR', factor: 1 },
  公升: { uom: 'LTR', factor: 1 },
  ml: { uom: 'MLT', factor: 1 },
  毫升: { uom: 'MLT', factor: 1 },
};

/**
 * A quantity in a unit as typed, as EPCIS writes it: a measure in its UN/ECE Rec 20 unit (斤 as
 * kg), or a count of items (no uom) for any other unit (箱, 袋, 个, pcs …).
 */
export function epcisQuantity(
  epcClass: string,
  quantity: number,
  unit: string,
): EpcisQuantityElement {
  const code = UNIT_CODES[unit.trim().toLowerCase()];
  if (!code) return { epcClass, quantity };
  return { epcClass, quantity: round(quantity * code.factor), uom: code.uom };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

const OFFSET_RE = /(Z|[+-]\d{2}:\d{2})$/i;
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An event's time and zone offset from an ISO 8601 time with its offset; throws naming `field`. */
export function epcisTime(value: string, field: string): { time: string; offset: string } {
  const match = OFFSET_RE.exec(value);
  if (!DATE_TIME_RE.test(value) || !match || Number.isNaN(Date.parse(value))) {
    throw new TypeError(
      `EPCIS export: ${field} is not an ISO 8601 time with a zone offset: ${value}`,
    );
  }
  const time = /T\d{2}:\d{2}(Z|[+-])/i.test(value)
    ? value.replace(/(T\d{2}:\d{2})/, '$1:00')
    : value;
  return { time, offset: match[1]!.toUpperCase() === 'Z' ? '+00:00' : match[1]! };
}

/**
 * A moment as ISO 8601 in a time zone, with that zone's offset (2026-06-01T08:00:00+08:00): what
 * the chain's times should be, so each event keeps the offset of where it happened.
 */
export function isoInTimeZone(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const wall = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  const minutes = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = new Date(wall).toISOString().slice(0, 19);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// ---------------------------------------------------------------------------------------------
// Identifiers

class Ids {
  readonly resolver: string;
  readonly base: string;

  constructor(options: EpcisExportOptions) {
    this.resolver = options.resolver ?? GS1_RESOLVER;
    this.base = options.idBase ?? 'urn:shuili:trace:';
    if (!/^[a-z][a-z0-9+.-]*:\S*[:/]$/i.test(this.base)) {
      throw new TypeError(`EPCIS export: idBase must end with ":" or "/": ${this.base}`);
    }
  }

  /** One of the exporter's own identifiers: idBase + parts, each percent-encoded. */
  own(...parts: string[]): string {
    const separator = this.base.endsWith('/') ? '/' : ':';
    return this.base + parts.map((part) => encodeURIComponent(part)).join(separator);
  }

  place(place: TraceChainPlace): string {
    return /^[a-z][a-z0-9+.-]*:/i.test(place.id) ? place.id : this.own('place', place.id);
  }

  /** The class of a lot: GS1 Digital Link (GTIN + batch) when it can be, else an own URI. */
  lotClass(kind: string, lot: string, gtin: string | undefined): string {
    if (gtin && !checkDigitalLinkParts({ gtin, lot }, this.resolver)) {
      return buildDigitalLink({ gtin, lot }, this.resolver);
    }
    return this.own('lot', kind, lot);
  }

  /** A package batch as one object (the packing's parent): its Digital Link with serial. */
  packageInstance(pkg: TraceChainPackage): string {
    const serial = pkg.serial ?? pkg.traceCode;
    if (
      pkg.gtin &&
      !checkDigitalLinkParts({ gtin: pkg.gtin, lot: pkg.lot, serial }, this.resolver)
    ) {
      return buildDigitalLink({ gtin: pkg.gtin, lot: pkg.lot, serial }, this.resolver);
    }
    return this.own('package', pkg.traceCode);
  }
}

// ---------------------------------------------------------------------------------------------
// Events

function timed(
  ids: Ids,
  at: string,
  field: string,
  ...idParts: string[]
): Pick<EpcisEventBase, 'eventID' | 'eventTime' | 'eventTimeZoneOffset'> {
  const { time, offset } = epcisTime(at, field);
  return { eventID: ids.own('event', ...idParts), eventTime: time, eventTimeZoneOffset: offset };
}

function recallEvent(
  ids: Ids,
  kind: string,
  id: string,
  recall: TraceChainRecall,
  quantity: EpcisQuantityElement,
): EpcisObjectEvent {
  return {
    type: 'ObjectEvent',
    ...timed(ids, recall.at, `${kind}.recall.at`, kind, id, 'recall'),
    action: 'OBSERVE',
    disposition: 'recalled',
    quantityList: [quantity],
  };
}

function harvestEvents(ids: Ids, harvest: TraceChainHarvest): EpcisEvent[] {
  const epcClass = ids.lotClass('harvest', harvest.batchNo, harvest.gtin);
  const quantity = epcisQuantity(epcClass, harvest.quantity, harvest.unit);
  const events: EpcisEvent[] = [
    {
      type: 'ObjectEvent',
      ...timed(ids, harvest.harvestedAt, 'harvest.harvestedAt', 'harvest', harvest.id),
      action: 'ADD',
      bizStep: 'commissioning',
      disposition: 'active',
      quantityList: [quantity],
      readPoint: { id: ids.place(harvest.plot) },
      bizLocation: { id: ids.place(harvest.base ?? harvest.plot) },
      ilmd: { 'cbvmda:lotNumber': harvest.batchNo },
    },
  ];
  if (harvest.recall)
    events.push(recallEvent(ids, 'harvest', harvest.id, harvest.recall, quantity));
  return events;
}

function processEvents(ids: Ids, process: TraceChainProcess): EpcisEvent[] {
  const outputClass = ids.lotClass('process', process.processNo, process.output.gtin);
  const output = epcisQuantity(outputClass, process.output.quantity, process.output.unit);
  const place = process.place ? { id: ids.place(process.place) } : undefined;
  const events: EpcisEvent[] = [
    {
      type: 'TransformationEvent',
      ...timed(ids, process.endedAt, 'process.endedAt', 'process', process.id),
      transformationID: ids.own('transformation', process.processNo),
      bizStep: 'creating_class_instance',
      disposition: 'active',
      inputQuantityList: process.inputs.map((input) =>
        epcisQuantity(
          ids.lotClass('harvest', input.harvest.lot, input.harvest.gtin),
          input.quantity,
          input.unit,
        ),
      ),
      outputQuantityList: [output],
      ...(place ? { readPoint: place, bizLocation: place } : {}),
      ilmd: { 'cbvmda:lotNumber': process.processNo },
    },
  ];
  if (process.recall) events.push(recallEvent(ids, 'process', process.id, process.recall, output));
  return events;
}

function packageEvents(ids: Ids, pkg: TraceChainPackage): EpcisEvent[] {
  const sourceClass = ids.lotClass(pkg.source.kind, pkg.source.lot, pkg.source.gtin);
  const place = pkg.place ? { id: ids.place(pkg.place) } : undefined;
  const events: EpcisEvent[] = [
    {
      type: 'AggregationEvent',
      ...timed(ids, pkg.packedAt, 'package.packedAt', 'package', pkg.id),
      action: 'ADD',
      bizStep: 'packing',
      disposition: 'in_progress',
      parentID: ids.packageInstance(pkg),
      childQuantityList: [epcisQuantity(sourceClass, pkg.packageCount * pkg.netQuantity, pkg.unit)],
      ...(place ? { readPoint: place, bizLocation: place } : {}),
    },
  ];
  if (pkg.recall) {
    const packages = {
      epcClass: ids.lotClass('package', pkg.lot, pkg.gtin),
      quantity: pkg.packageCount,
    };
    events.push(recallEvent(ids, 'package', pkg.id, pkg.recall, packages));
  }
  return events;
}

function shipmentEvents(
  ids: Ids,
  shipment: TraceChainShipment,
  pkg: TraceChainPackage,
): EpcisEvent[] {
  const packages = {
    epcClass: ids.lotClass('package', pkg.lot, pkg.gtin),
    quantity: shipment.packageCount,
  };
  const from = ids.place(shipment.from);
  const to = ids.place(shipment.to);
  const readings = [...shipment.temperatures].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const sensors: EpcisSensorElement[] = readings.length
    ? [
        {
          sensorMetadata: {
            startTime: epcisTime(readings[0]!.at, 'shipment.temperatures.at').time,
            endTime: epcisTime(readings.at(-1)!.at, 'shipment.temperatures.at').time,
          },
          sensorReport: readings.map((reading) => ({
            type: 'Temperature',
            value: reading.celsius,
            uom: 'CEL',
            time: epcisTime(reading.at, 'shipment.temperatures.at').time,
          })),
        },
      ]
    : [];
  const events: EpcisEvent[] = [
    {
      type: 'ObjectEvent',
      ...timed(ids, shipment.departedAt, 'shipment.departedAt', 'shipment', shipment.id),
      action: 'OBSERVE',
      bizStep: 'shipping',
      disposition: 'in_transit',
      quantityList: [packages],
      readPoint: { id: from },
      sourceList: [{ type: 'location', source: from }],
      destinationList: [{ type: 'location', destination: to }],
      ...(sensors.length ? { sensorElementList: sensors } : {}),
    },
  ];
  if (shipment.arrivedAt) {
    events.push({
      type: 'ObjectEvent',
      ...timed(ids, shipment.arrivedAt, 'shipment.arrivedAt', 'shipment', shipment.id, 'arrival'),
      action: 'OBSERVE',
      bizStep: 'receiving',
      disposition: 'in_progress',
      quantityList: [packages],
      readPoint: { id: to },
      bizLocation: { id: to },
      sourceList: [{ type: 'location', source: from }],
      destinationList: [{ type: 'location', destination: to }],
    });
  }
  return events;
}

/**
 * The EPCIS 2.0 document of a chain: its events in time order (harvest, processing, packing,
 * shipping, arrivals and recalls). Throws a TypeError naming the field when a time has no zone
 * offset or a shipment's package batch is missing from the chain.
 */
export function buildEpcisDocument(
  chain: TraceChain,
  options: EpcisExportOptions = {},
): EpcisDocument {
  const ids = new Ids(options);
  const packages = new Map(chain.packages.map((pkg) => [pkg.id, pkg]));
  const events: EpcisEvent[] = [
    ...chain.harvests.flatMap((harvest) => harvestEvents(ids, harvest)),
    ...chain.processes.flatMap((process) => processEvents(ids, process)),
    ...chain.packages.flatMap((pkg) => packageEvents(ids, pkg)),
    ...chain.shipments.flatMap((shipment) => {
      const pkg = packages.get(shipment.packageId);
      if (!pkg) {
        throw new TypeError(
          `EPCIS export: shipment.packageId ${shipment.packageId} is not in the chain`,
        );
      }
      return shipmentEvents(ids, shipment, pkg);
    }),
  ];
  const order = new Map(events.map((event, i) => [event, i]));
  events.sort(
    (a, b) => Date.parse(a.eventTime) - Date.parse(b.eventTime) || order.get(a)! - order.get(b)!,
  );
  const creationDate = options.creationDate
    ? epcisTime(options.creationDate, 'creationDate').time
    : new Date().toISOString();
  return {
    '@context': [EPCIS_CONTEXT],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate,
    ...(options.sender ? { sender: options.sender } : {}),
    epcisBody: { eventList: events },
  };
}

/** The best-before of a package batch as the Digital Link's AI 17 (YYMMDD). */
export function packageBestBefore(pkg: Pick<TraceChainPackage, 'bestBefore'>): string | undefined {
  return pkg.bestBefore ? gs1Date(pkg.bestBefore) : undefined;
}
