import type { AreaDevicePage, ThingModel } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { areaDevicesOf, mergePatch, patchReadings, withPatch } from './area-devices';

const MODEL: ThingModel = {
  properties: [
    { key: 'flow', name: { en: 'Flow', zh: '流量', tw: '流量' }, type: 'number', access: 'r' },
    {
      key: 'valve',
      name: { en: 'Valve', zh: '阀门', tw: '閥門' },
      type: 'enum',
      options: [
        { value: 0, label: { en: 'Closed', zh: '关', tw: '關' } },
        { value: 1, label: { en: 'Open', zh: '开', tw: '開' } },
      ],
      access: 'r',
    },
    {
      key: 'running',
      name: { en: 'Running', zh: '运行', tw: '運行' },
      type: 'boolean',
      access: 'r',
    },
    { key: 'note', name: { en: 'Note', zh: '备注', tw: '備註' }, type: 'string', access: 'r' },
  ],
  events: [],
  commands: [],
};

const PAGE: AreaDevicePage = {
  list: [
    {
      id: '1',
      deviceNo: 'V-1',
      deviceName: 'Valve 1',
      productId: '9',
      projectId: null,
      projectName: null,
      zoneId: '4',
      zoneName: 'North',
      lat: 30,
      lng: 120,
      status: 0,
      online: false,
      lastSeen: '2025-05-01T08:00:00.000Z',
      values: { flow: 10 },
      valueTimes: { flow: '2025-05-01T08:00:00.000Z' },
    },
    {
      id: '2',
      deviceNo: 'V-2',
      deviceName: 'Valve 2',
      productId: '8',
      projectId: null,
      projectName: null,
      zoneId: null,
      zoneName: null,
      lat: null,
      lng: null,
      status: 3,
      online: true,
      lastSeen: null,
    },
  ],
  total: 2,
  currentPage: 1,
  pageSize: 50,
  counts: { online: 1, offline: 1, fault: 1 },
  products: [{ id: '9', productName: 'Valves', thingModel: MODEL }],
};

describe('area devices', () => {
  const [device, unknown] = areaDevicesOf(PAGE);

  it('joins each row to its product’s thing model; what the reader may not see stays empty', () => {
    expect(device!.thingModel).toBe(MODEL);
    expect(device!.values).toEqual({ flow: 10 });
    expect(device!.alarmLevel).toBeNull();
    expect(unknown!.thingModel.properties).toEqual([]);
    expect(unknown!.values).toEqual({});
    expect(unknown!.valueTimes).toEqual({});
  });

  it('reads a telemetry payload as the thing model allows, booleans as 0 and 1, texts left out', () => {
    const readings = patchReadings(
      device!,
      {
        ts: '2025-05-01T09:00:00Z',
        values: { flow: 12.5, valve: 1, running: true, note: 'x', gone: 1 },
      },
      Date.parse('2025-05-01T09:00:05Z'),
    );
    expect(readings).toEqual({
      flow: { value: 12.5, ts: '2025-05-01T09:00:00.000Z' },
      valve: { value: 1, ts: '2025-05-01T09:00:00.000Z' },
      running: { value: 1, ts: '2025-05-01T09:00:00.000Z' },
    });
    // A value out of the thing model's bounds of type is dropped, as ingestion drops it.
    expect(patchReadings(device!, { values: { valve: 'open' } }, 0)).toEqual({});
  });

  it('keeps the newest reading whatever order the messages come in', () => {
    const late = { readings: { flow: { value: 1, ts: '2025-05-01T07:00:00.000Z' } } };
    const fresh = {
      readings: { flow: { value: 2, ts: '2025-05-01T09:00:00.000Z' } },
      online: true,
      lastSeen: '2025-05-01T09:00:01.000Z',
    };
    const merged = mergePatch(mergePatch(undefined, fresh), late);
    expect(merged.readings.flow).toEqual({ value: 2, ts: '2025-05-01T09:00:00.000Z' });
    expect(merged.online).toBe(true);
    expect(merged.lastSeen).toBe('2025-05-01T09:00:01.000Z');
    const live = withPatch(device!, merged);
    expect(live.values.flow).toBe(2);
    expect(live.online).toBe(true);
    expect(live.lastSeen).toBe('2025-05-01T09:00:01.000Z');
    // A patch older than the page's own value changes nothing: the same object comes back.
    expect(withPatch(device!, late)).toBe(device);
    expect(withPatch(device!, mergePatch(undefined, { readings: {}, online: false }))).toBe(device);
  });
});
