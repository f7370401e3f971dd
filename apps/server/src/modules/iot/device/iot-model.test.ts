import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DEVICE_FILE_CALLS,
  DEVICE_FILE_MAX_BYTES,
  DEVICE_NO_PATTERN,
  entityCalls,
  FACTORS,
  type MenuNode,
  iotDeviceEntity,
  iotFactorEntity,
  iotProductEntity,
  PRODUCTS,
  THING_MODEL_CALLS,
  thingModelSchema,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { filesStoredFromNow } from '@shuili/test-support/stored-files';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(BACKENDS)('IoT model on $backend', ({ backend, available }) => {
  let server: TestServer;
  let dataDir: string;
  /** The files uploads stored (the demo seed's own left out). */
  let storedFiles: () => Promise<string[]>;
  const tokens = { demo: '', acme: '' };
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-model-'));
    server = await startTestServer({ backend, config: { dataDir } });
    storedFiles = await filesStoredFromNow(dataDir);
    tokens.demo = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    tokens.acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  const api = (who: 'demo' | 'acme', method: string, url: string, options = {}) =>
    call(server, method, url, { token: tokens[who], ...options });

  /** Uploads raw bytes the way the console does. */
  async function upload(
    who: 'demo' | 'acme',
    query: Record<string, string>,
    bytes: Buffer,
    lang = 'en',
  ) {
    const url = new URL(DEVICE_FILE_CALLS.upload, server.url);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens[who]}`,
        'content-type': 'application/octet-stream',
        cookie: `language=${lang}`,
      },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function demoDevices() {
    const found = await api('demo', 'GET', entityCalls(iotDeviceEntity).query, {
      query: { pageSize: '500' },
    });
    expect(found.status).toBe(200);
    return found.body.data.list as Array<Record<string, unknown>>;
  }

  describe('seed', () => {
    test('every tenant gets the factor catalogue and one product per device kind', async () => {
      for (const who of ['demo', 'acme'] as const) {
        const factors = await api(who, 'GET', entityCalls(iotFactorEntity).query, {
          query: { pageSize: '500' },
        });
        expect(factors.body.data.total).toBe(FACTORS.length);
        const water = factors.body.data.list.find(
          (row: Record<string, unknown>) => row.factorCode === 'waterLevel',
        );
        expect(water).toMatchObject({ factorName: '水位', unit: 'm', category: 'hydrology' });
        const products = await api(who, 'GET', entityCalls(iotProductEntity).query, {
          query: { pageSize: '100' },
        });
        expect(products.body.data.total).toBe(PRODUCTS.length);
        // The thing model stays out of the generic rows.
        expect(products.body.data.list[0]).not.toHaveProperty('thingModel');
      }
    });

    test('the demo district has zones, a project and devices of every product around 36.6N 117.0E', async () => {
      const devices = await demoDevices();
      expect(devices.length).toBe(PRODUCTS.length * 3);
      const products = new Set(devices.map((device) => device.productId));
      expect(products.size).toBe(PRODUCTS.length);
      const zones = new Set(devices.map((device) => device.zoneId));
      expect(zones.size).toBeGreaterThanOrEqual(3);
      for (const device of devices) {
        expect(String(device.deviceNo)).toMatch(DEVICE_NO_PATTERN);
        expect(Math.abs(Number(device.lat) - 36.6)).toBeLessThan(0.3);
        expect(Math.abs(Number(device.lng) - 117.0)).toBeLessThan(0.3);
        expect(device).toMatchObject({ status: 0, online: false });
        expect(device.projectIdLabel).toBe('高效节水灌溉示范项目');
      }
      const acme = await api('acme', 'GET', entityCalls(iotDeviceEntity).query);
      expect(acme.body.data.total).toBe(0);
    });
  });

  test('the IoT menu: every screen for the admin, the device list for the operator', async () => {
    const authority = async (token: string) => {
      const result = await call(
        server,
        'POST',
        '/api/account/sysuserdetail/queryCurrentAuthority',
        {
          token,
        },
      );
      expect(result.status).toBe(200);
      const iot = (result.body.data.menu as MenuNode[]).find((node) => node.menuCode === 'iot');
      return {
        paths: (iot?.children ?? []).map((node) => node.menuPath),
        buttons: result.body.data.menuButton as string[],
      };
    };
    const admin = await authority(tokens.demo);
    expect(admin.paths).toEqual(
      expect.arrayContaining([
        '/IOTprojectList',
        '/IOTproductList',
        '/factorList',
        '/sensorTemplate',
        '/sensorInstance',
        '/controllerTemplate',
        '/controllerInstance',
        '/iot/deviceList',
        '/wenjianList',
        '/imageList',
      ]),
    );
    expect(admin.buttons).toEqual(
      expect.arrayContaining(['iotdevice:add', 'iotproduct:edit', 'devicefile:export']),
    );
    const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const seen = await authority(operator);
    // Monitoring and control by default (DEFAULT_ROLE_GRANTS): devices, records, warnings.
    expect(seen.paths).toEqual(['/iot/deviceList', '/iot/command', '/iot/alarmRecord']);
    expect(seen.buttons.filter((code) => /^(iot|alarm)/.test(code)).sort()).toEqual([
      'alarmRecord:export',
      'iotCommand:export',
      'iotdevice:export',
    ]);
  });

  describe('thing model', () => {
    test('reads the seeded thing model of a product by serial number', async () => {
      const read = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'IRR-VALVE-4' },
      });
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        serialNo: 'IRR-VALVE-4',
        deviceKind: 'irrigation_valve',
      });
      expect(thingModelSchema.parse(read.body.data.thingModel)).toEqual(
        PRODUCTS.find((product) => product.serialNo === 'IRR-VALVE-4')!.thingModel,
      );
      const missing = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'NOPE' },
      });
      expect(missing.status).toBe(404);
    });

    test('refuses a bad model naming each offending path, translated; nothing written', async () => {
      const before = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'PUMP-VFD-2' },
      });
      const model = structuredClone(before.body.data.thingModel);
      model.properties[1].key = '1bad key';
      model.commands.push({ ...model.commands[0] });
      const refused = await api('demo', 'PUT', THING_MODEL_CALLS.update, {
        body: { serialNo: 'PUMP-VFD-2', thingModel: model },
        lang: 'zh',
      });
      expect(refused.status).toBe(400);
      const fields = refused.body.errors.map((error: { field: string }) => error.field);
      expect(fields).toContain('thingModel.properties.1.key');
      expect(fields).toContain('thingModel.commands');
      for (const error of refused.body.errors) expect(error.message).toMatch(/[\u4e00-\u9fff]/);
      const after = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'PUMP-VFD-2' },
      });
      expect(after.body.data.thingModel).toEqual(before.body.data.thingModel);

      const notAModel = await api('demo', 'PUT', THING_MODEL_CALLS.update, {
        body: { serialNo: 'PUMP-VFD-2', thingModel: 'x' },
      });
      expect(notAModel.status).toBe(400);
      expect(notAModel.body.errors[0].field).toBe('thingModel');
    });

    test('saves a valid model, tells the device caches, and stays inside the tenant', async () => {
      const changed: string[] = [];
      const stop = server.app.deviceChanges.subscribe((tenantId) => changed.push(tenantId));
      const before = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'GATE-1' },
      });
      const model = structuredClone(before.body.data.thingModel);
      model.properties.push({
        key: 'sluiceTemperature',
        name: { en: 'Cabinet temperature', zh: '柜内温度', tw: '櫃內溫度' },
        type: 'number',
        unit: '°C',
        min: -40,
        max: 85,
        precision: 1,
        access: 'r',
      });
      const saved = await api('demo', 'PUT', THING_MODEL_CALLS.update, {
        body: { serialNo: 'GATE-1', thingModel: model },
      });
      stop();
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.thingModel.properties.at(-1).key).toBe('sluiceTemperature');
      expect(changed.length).toBe(1);
      const reread = await api('demo', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'GATE-1' },
      });
      expect(reread.body.data.thingModel).toEqual(saved.body.data.thingModel);
      // acme has a GATE-1 of its own, untouched.
      const acme = await api('acme', 'GET', THING_MODEL_CALLS.query, {
        query: { serialNo: 'GATE-1' },
      });
      expect(acme.body.data.thingModel.properties.map((p: { key: string }) => p.key)).not.toContain(
        'sluiceTemperature',
      );
    });
  });

  test('a factor whose minimum is above its maximum is refused, on add and on update', async () => {
    const calls = entityCalls(iotFactorEntity);
    const added = await api('demo', 'POST', calls.add, {
      body: { factorCode: 'oddRange', factorName: 'Odd', precision: 1, minValue: 5, maxValue: 1 },
    });
    expect(added.status).toBe(400);
    expect(added.body.errors[0].field).toBe('maxValue');
    const good = await api('demo', 'POST', calls.add, {
      body: { factorCode: 'oddRange', factorName: 'Odd', precision: 1, minValue: 0, maxValue: 1 },
    });
    expect(good.status).toBe(200);
    const updated = await api('demo', 'PUT', calls.update, {
      body: { id: good.body.data.id, minValue: 2 },
    });
    expect(updated.status).toBe(400);
    expect(updated.body.errors[0].field).toBe('maxValue');
  });

  describe('device files', () => {
    test('an image round-trips; the stored name is generated, not the user’s', async () => {
      const [device] = await demoDevices();
      const uploaded = await upload(
        'demo',
        { deviceId: String(device!.id), fileName: '../../现场照片.png', fileKind: 'image' },
        PNG,
      );
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      expect(uploaded.body.data.contentType).toBe('image/png');
      const stored = await storedFiles();
      expect(stored.length).toBe(1);
      expect(stored[0]).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}$/);

      const url = new URL(DEVICE_FILE_CALLS.download, server.url);
      url.searchParams.set('id', uploaded.body.data.id);
      const download = await fetch(url, { headers: { authorization: `Bearer ${tokens.demo}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('image/png');
      // Listed and downloaded under the name without its path (upload-policy.ts).
      expect(download.headers.get('content-disposition')).toContain(
        encodeURIComponent('现场照片.png'),
      );
      expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

      const listed = await api('demo', 'GET', '/api/iot/file/queryIotDeviceFile', {
        query: { fileKind: 'image' },
      });
      expect(listed.body.data.list[0]).toMatchObject({
        id: uploaded.body.data.id,
        originalName: '现场照片.png',
        sizeKb: 1,
      });
      expect(listed.body.data.list[0]).not.toHaveProperty('storageKey');

      // Another tenant can neither download nor delete it.
      const foreign = await fetch(url, { headers: { authorization: `Bearer ${tokens.acme}` } });
      expect(foreign.status).toBe(404);
      const foreignDelete = await api('acme', 'POST', DEVICE_FILE_CALLS.remove, {
        query: { id: uploaded.body.data.id },
      });
      expect(foreignDelete.status).toBe(404);

      const removed = await api('demo', 'POST', DEVICE_FILE_CALLS.remove, {
        query: { id: uploaded.body.data.id },
      });
      expect(removed.status).toBe(200);
      expect(await storedFiles()).toEqual([]);
      const gone = await fetch(url, { headers: { authorization: `Bearer ${tokens.demo}` } });
      expect(gone.status).toBe(404);
    });

    test('bad uploads are refused naming the field, translated, and leave nothing behind', async () => {
      const [device] = await demoDevices();
      const deviceId = String(device!.id);
      const cases: Array<[Record<string, string>, Buffer, string]> = [
        [
          { deviceId, fileName: 'x.png', fileKind: 'image' },
          Buffer.from('<script>1</script>'),
          'file',
        ],
        [{ deviceId, fileName: 'empty.txt' }, Buffer.alloc(0), 'file'],
        [{ deviceId, fileName: 'big.txt' }, Buffer.alloc(DEVICE_FILE_MAX_BYTES + 1, 'a'), 'file'],
        [{ deviceId: '987654321', fileName: 'a.txt' }, Buffer.from('hello'), 'deviceId'],
        [{ deviceId: 'abc', fileName: 'a.txt' }, Buffer.from('hello'), 'deviceId'],
        [{ deviceId, fileName: '' }, Buffer.from('hello'), 'fileName'],
        [{ deviceId, fileName: 'a.txt', fileKind: 'video' }, Buffer.from('hello'), 'fileKind'],
      ];
      for (const [query, bytes, field] of cases) {
        const result = await upload('demo', query, bytes, 'zh');
        expect(result.status, `${JSON.stringify(query)}: ${JSON.stringify(result.body)}`).toBe(400);
        expect(result.body.errors[0].field).toBe(field);
        expect(result.body.message).toMatch(/[\u4e00-\u9fff]/);
      }
      // A demo device id is unknown to acme.
      const foreign = await upload('acme', { deviceId, fileName: 'a.txt' }, Buffer.from('x'));
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors[0].field).toBe('deviceId');
      expect(await storedFiles()).toEqual([]);
    });

    test('deleting a device takes its files (rows and bytes) along', async () => {
      const product = (
        await api('demo', 'GET', entityCalls(iotProductEntity).query, {
          query: { serialNo: 'CAM-PTZ' },
        })
      ).body.data.list[0];
      const device = await api('demo', 'POST', entityCalls(iotDeviceEntity).add, {
        body: { deviceNo: 'CAM-TMP-1', deviceName: 'Temporary camera', productId: product.id },
      });
      expect(device.status, JSON.stringify(device.body)).toBe(200);
      const file = await upload(
        'demo',
        { deviceId: device.body.data.id, fileName: 'manual.pdf' },
        Buffer.from('%PDF-1.4 test'),
      );
      expect(file.status).toBe(200);
      expect(file.body.data.contentType).toBe('application/pdf');
      expect((await storedFiles()).length).toBe(1);
      const removed = await api('demo', 'POST', entityCalls(iotDeviceEntity).delete, {
        query: { id: device.body.data.id },
      });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(await storedFiles()).toEqual([]);
      const rows = await server.db.system((sql) =>
        sql.query('SELECT 1 FROM iot_device_file WHERE id = $1', [file.body.data.id]),
      );
      expect(rows.rows).toEqual([]);
    });
  });
});
