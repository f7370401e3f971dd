import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  buildEpcisDocument,
  epcisQuantity,
  epcisTime,
  isoInTimeZone,
  type EpcisAggregationEvent,
  type EpcisObjectEvent,
  type EpcisTransformationEvent,
  type TraceChain,
} from './epcis';

/** The official EPCIS 2.0 JSON schema (fixtures/README.md says where it comes from). */
const schema = JSON.parse(
  readFileSync(new URL('./fixtures/EPCIS-JSON-Schema.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

function expectValid(document: unknown): void {
  const ok = validate(document);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(ok).toBe(true);
}

const CHAIN: TraceChain = {
  harvests: [
    {
      id: '11',
      batchNo: 'H20260601-7KQ2',
      product: '水稻 · 南粳9108',
      gtin: '06901234567892',
      harvestedAt: '2026-06-01T08:30:00+08:00',
      quantity: 1200,
      unit: 'kg',
      plot: { id: 'area-7', name: '东坡 3 号田' },
      base: { id: 'base-2', name: '稻香基地' },
    },
    {
      id: '12',
      batchNo: 'H20260602-Q3M9',
      product: '水稻 · 南粳9108',
      harvestedAt: '2026-06-02T09:00+08:00',
      quantity: 800,
      unit: '斤',
      plot: { id: 'area-8' },
      recall: { at: '2026-06-20T10:00:00+08:00', reason: '抽检不合格' },
    },
  ],
  processes: [
    {
      id: '21',
      processNo: 'P20260603-01',
      type: 'milling',
      startedAt: '2026-06-03T08:00:00+08:00',
      endedAt: '2026-06-03T17:00:00+08:00',
      place: { id: 'urn:epc:id:sgln:0614141.00777.0' },
      inputs: [
        {
          harvest: { kind: 'harvest', id: '11', lot: 'H20260601-7KQ2', gtin: '06901234567892' },
          quantity: 1000,
          unit: 'kg',
        },
        {
          harvest: { kind: 'harvest', id: '12', lot: 'H20260602-Q3M9' },
          quantity: 800,
          unit: '斤',
        },
      ],
      output: { quantity: 980, unit: 'kg', gtin: '06901234567892' },
    },
  ],
  packages: [
    {
      id: '31',
      traceCode: '7KQ2M9X4TD0C',
      gtin: '06901234567892',
      lot: 'P20260603-01',
      source: { kind: 'process', id: '21', lot: 'P20260603-01', gtin: '06901234567892' },
      packageCount: 190,
      netQuantity: 5,
      unit: 'kg',
      packedAt: '2026-06-04T10:00:00+08:00',
      bestBefore: '2027-06-03',
      place: { id: 'base-2' },
    },
    {
      id: '32',
      traceCode: 'ABCDEFGH1234',
      lot: 'H20260601-7KQ2',
      source: { kind: 'harvest', id: '11', lot: 'H20260601-7KQ2', gtin: '06901234567892' },
      packageCount: 40,
      netQuantity: 1,
      unit: '箱',
      packedAt: '2026-06-01T15:00:00Z',
      recall: { at: '2026-06-21T10:00:00+08:00' },
    },
  ],
  shipments: [
    {
      id: '41',
      packageId: '31',
      packageCount: 100,
      carrier: '顺丰冷运',
      vehicle: '苏A·12345',
      from: { id: 'base-2' },
      to: { id: 'shipment-41-to', name: '南京众彩农副产品批发市场' },
      departedAt: '2026-06-05T06:00:00+08:00',
      arrivedAt: '2026-06-05T11:30:00+08:00',
      temperatures: [
        { at: '2026-06-05T09:00:00+08:00', celsius: 4.5 },
        { at: '2026-06-05T07:00:00+08:00', celsius: 3.8 },
      ],
    },
    {
      id: '42',
      packageId: '32',
      packageCount: 40,
      from: { id: 'base-2' },
      to: { id: 'shop-1' },
      departedAt: '2026-06-02T06:00:00+08:00',
      temperatures: [],
    },
  ],
};

describe('EPCIS 2.0 export of a chain', () => {
  const document = buildEpcisDocument(CHAIN, {
    creationDate: '2026-06-30T12:00:00+08:00',
    sender: 'https://console.example.cn',
    idBase: 'https://console.example.cn/api/trace/id/',
  });
  const events = document.epcisBody.eventList;

  it('is valid against the official EPCIS 2.0 JSON schema', () => {
    expectValid(document);
    expectValid(buildEpcisDocument(CHAIN)); // the default idBase, a URN
    expectValid(buildEpcisDocument({ harvests: [], processes: [], packages: [], shipments: [] }));
  });

  it('the schema is the real one: it refuses what EPCIS forbids', () => {
    const noOffset = structuredClone(document) as unknown as {
      epcisBody: { eventList: Record<string, unknown>[] };
    };
    delete noOffset.epcisBody.eventList[0]!.eventTimeZoneOffset;
    expect(validate(noOffset)).toBe(false);
    const badUom = structuredClone(document);
    (badUom.epcisBody.eventList[0] as EpcisObjectEvent).quantityList[0]!.uom = 'kg';
    expect(validate(badUom)).toBe(false);
    const observeWithIlmd = structuredClone(document);
    const first = observeWithIlmd.epcisBody.eventList[0] as EpcisObjectEvent;
    first.action = 'OBSERVE';
    expect(validate(observeWithIlmd)).toBe(false);
  });

  it('writes the harvest as ObjectEvent ADD commissioning with its lot, class-level by Digital Link', () => {
    const harvest = events.find((e) => e.eventID.endsWith('/event/harvest/11')) as EpcisObjectEvent;
    expect(harvest).toMatchObject({
      type: 'ObjectEvent',
      action: 'ADD',
      bizStep: 'commissioning',
      eventTime: '2026-06-01T08:30:00+08:00',
      eventTimeZoneOffset: '+08:00',
      quantityList: [
        {
          epcClass: 'https://id.gs1.org/01/06901234567892/10/H20260601-7KQ2',
          quantity: 1200,
          uom: 'KGM',
        },
      ],
      readPoint: { id: 'https://console.example.cn/api/trace/id/place/area-7' },
      bizLocation: { id: 'https://console.example.cn/api/trace/id/place/base-2' },
      ilmd: { 'cbvmda:lotNumber': 'H20260601-7KQ2' },
    });
    const noGtin = events.find((e) => e.eventID.endsWith('/event/harvest/12')) as EpcisObjectEvent;
    expect(noGtin.quantityList).toEqual([
      {
        epcClass: 'https://console.example.cn/api/trace/id/lot/harvest/H20260602-Q3M9',
        quantity: 400,
        uom: 'KGM',
      },
    ]);
    expect(noGtin.eventTime).toBe('2026-06-02T09:00:00+08:00');
  });

  it('writes processing as TransformationEvent without action, with inputs and output', () => {
    const process = events.find(
      (e) => e.type === 'TransformationEvent',
    ) as EpcisTransformationEvent;
    expect(process).not.toHaveProperty('action');
    expect(process).toMatchObject({
      transformationID: 'https://console.example.cn/api/trace/id/transformation/P20260603-01',
      inputQuantityList: [
        {
          epcClass: 'https://id.gs1.org/01/06901234567892/10/H20260601-7KQ2',
          quantity: 1000,
          uom: 'KGM',
        },
        {
          epcClass: 'https://console.example.cn/api/trace/id/lot/harvest/H20260602-Q3M9',
          quantity: 400,
          uom: 'KGM',
        },
      ],
      outputQuantityList: [
        {
          epcClass: 'https://id.gs1.org/01/06901234567892/10/P20260603-01',
          quantity: 980,
          uom: 'KGM',
        },
      ],
      readPoint: { id: 'urn:epc:id:sgln:0614141.00777.0' },
    });
  });

  it('writes packing as AggregationEvent ADD packing, the batch (with serial) as parent', () => {
    const packing = (id: string) =>
      events.find((e) => e.eventID.endsWith(`/event/package/${id}`)) as EpcisAggregationEvent;
    expect(packing('31')).toMatchObject({
      action: 'ADD',
      bizStep: 'packing',
      parentID: 'https://id.gs1.org/01/06901234567892/10/P20260603-01/21/7KQ2M9X4TD0C',
      childQuantityList: [
        {
          epcClass: 'https://id.gs1.org/01/06901234567892/10/P20260603-01',
          quantity: 950,
          uom: 'KGM',
        },
      ],
    });
    expect(packing('32')).toMatchObject({
      parentID: 'https://console.example.cn/api/trace/id/package/ABCDEFGH1234',
      childQuantityList: [
        { epcClass: 'https://id.gs1.org/01/06901234567892/10/H20260601-7KQ2', quantity: 40 },
      ],
      eventTimeZoneOffset: '+00:00',
    });
  });

  it('writes shipping as ObjectEvent OBSERVE with the temperatures as sensor data, then receiving', () => {
    const shipping = events.find((e) =>
      e.eventID.endsWith('/event/shipment/41'),
    ) as EpcisObjectEvent;
    expect(shipping).toMatchObject({
      action: 'OBSERVE',
      bizStep: 'shipping',
      disposition: 'in_transit',
      quantityList: [
        { epcClass: 'https://id.gs1.org/01/06901234567892/10/P20260603-01', quantity: 100 },
      ],
      sourceList: [
        { type: 'location', source: 'https://console.example.cn/api/trace/id/place/base-2' },
      ],
      destinationList: [
        {
          type: 'location',
          destination: 'https://console.example.cn/api/trace/id/place/shipment-41-to',
        },
      ],
      sensorElementList: [
        {
          sensorMetadata: {
            startTime: '2026-06-05T07:00:00+08:00',
            endTime: '2026-06-05T09:00:00+08:00',
          },
          sensorReport: [
            { type: 'Temperature', value: 3.8, uom: 'CEL', time: '2026-06-05T07:00:00+08:00' },
            { type: 'Temperature', value: 4.5, uom: 'CEL', time: '2026-06-05T09:00:00+08:00' },
          ],
        },
      ],
    });
    expect(shipping.quantityList[0]).not.toHaveProperty('uom');
    expect(events.find((e) => e.eventID.endsWith('/event/shipment/41/arrival'))).toMatchObject({
      bizStep: 'receiving',
      eventTime: '2026-06-05T11:30:00+08:00',
    });
    const noSensors = events.find((e) => e.eventID.endsWith('/event/shipment/42'));
    expect(noSensors).not.toHaveProperty('sensorElementList');
  });

  it('marks recalls and orders the events by time', () => {
    const recalls = events.filter((e) => e.disposition === 'recalled');
    expect(recalls.map((e) => e.eventID.split('/event/')[1])).toEqual([
      'harvest/12/recall',
      'package/32/recall',
    ]);
    const times = events.map((e) => Date.parse(e.eventTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events).toHaveLength(2 + 1 + 1 + 2 + 1 + 3);
  });

  it('refuses a time without zone offset and a shipment of a package not in the chain, naming the field', () => {
    const noZone = structuredClone(CHAIN);
    noZone.harvests[0]!.harvestedAt = '2026-06-01T08:30:00';
    expect(() => buildEpcisDocument(noZone)).toThrow(/harvest\.harvestedAt/);
    const orphan = structuredClone(CHAIN);
    orphan.shipments[0]!.packageId = '99';
    expect(() => buildEpcisDocument(orphan)).toThrow(/shipment\.packageId/);
  });
});

describe('EPCIS units and times', () => {
  it('maps units to UN/ECE Rec 20 (斤 and 两 converted), counts without uom', () => {
    expect(epcisQuantity('x:c', 3, 'KG')).toEqual({ epcClass: 'x:c', quantity: 3, uom: 'KGM' });
    expect(epcisQuantity('x:c', 3, '斤')).toEqual({ epcClass: 'x:c', quantity: 1.5, uom: 'KGM' });
    expect(epcisQuantity('x:c', 3, '两')).toEqual({ epcClass: 'x:c', quantity: 150, uom: 'GRM' });
    expect(epcisQuantity('x:c', 2, '吨')).toEqual({ epcClass: 'x:c', quantity: 2, uom: 'TNE' });
    expect(epcisQuantity('x:c', 7, '筐')).toEqual({ epcClass: 'x:c', quantity: 7 });
  });

  it('reads zone offsets and writes a moment in a time zone', () => {
    expect(epcisTime('2026-06-01T08:00:00Z', 'f')).toEqual({
      time: '2026-06-01T08:00:00Z',
      offset: '+00:00',
    });
    expect(epcisTime('2026-06-01T08:00-05:30', 'f')).toEqual({
      time: '2026-06-01T08:00:00-05:30',
      offset: '-05:30',
    });
    expect(() => epcisTime('2026-06-01', 'f')).toThrow(/f is not/);
    const at = new Date('2026-06-01T00:30:00Z');
    expect(isoInTimeZone(at, 'Asia/Shanghai')).toBe('2026-06-01T08:30:00+08:00');
    expect(isoInTimeZone(at, 'America/New_York')).toBe('2026-05-31T20:30:00-04:00');
    expect(isoInTimeZone(at, 'UTC')).toBe('2026-06-01T00:30:00+00:00');
  });
});
