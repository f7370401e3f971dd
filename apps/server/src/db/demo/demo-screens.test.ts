import {
  controllerInstanceEntity,
  controllerTemplateEntity,
  dataPermissionEntity,
  DEVICE_FILE_CALLS,
  entityCalls,
  iotCommandEntity,
  iotDeviceFileEntity,
  operationLogEntity,
  sensorInstanceEntity,
  sensorTemplateEntity,
  sysParamEntity,
  sysPostEntity,
  type EntityDef,
  type ThingModel,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { imageTypeOf } from '../../modules/files/image-type';
import { seed } from '../seed';

/** The screens a fresh demo showed empty (issue 17 item 8), with the filter each screen sends. */
const SCREENS: Array<[EntityDef, Record<string, string>]> = [
  [sysPostEntity, {}],
  [sysParamEntity, {}],
  [dataPermissionEntity, {}],
  [sensorTemplateEntity, {}],
  [sensorInstanceEntity, {}],
  [controllerTemplateEntity, {}],
  [controllerInstanceEntity, {}],
  [iotDeviceFileEntity, { fileKind: 'file' }],
  [iotDeviceFileEntity, { fileKind: 'image' }],
  [iotCommandEntity, {}],
  [operationLogEntity, {}],
];

describe.each(BACKENDS)('the demo seed on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const list = async (entity: EntityDef, query: Record<string, string> = {}, token = admin) => {
    const answer = await call(server, 'GET', entityCalls(entity).query, {
      token,
      query: { pageSize: '100', ...query },
    });
    expect(answer.status).toBe(200);
    return answer.body.data as { total: number; list: Array<Record<string, unknown>> };
  };

  it.skipIf(!available)('gives every screen of a fresh demo rows, once', async () => {
    const totals: number[] = [];
    for (const [entity, filter] of SCREENS) {
      const { total } = await list(entity, filter);
      expect(total, `${entity.name} ${JSON.stringify(filter)}`).toBeGreaterThan(0);
      totals.push(total);
    }
    // A restart seeds nothing again.
    expect(await seed(server.db, server.config)).toEqual([]);
    for (const [index, [entity, filter]] of SCREENS.entries())
      expect((await list(entity, filter)).total).toBe(totals[index]);
  });

  it.skipIf(!available)('seeds rows an administrator can save unchanged', async () => {
    const editable = [
      sysPostEntity,
      sysParamEntity,
      dataPermissionEntity,
      sensorTemplateEntity,
      sensorInstanceEntity,
      controllerTemplateEntity,
      controllerInstanceEntity,
    ];
    for (const entity of editable) {
      for (const row of (await list(entity)).list) {
        // The form's fields as listed: the update call checks them as the console's form does.
        const body: Record<string, unknown> = { id: row.id };
        for (const [name, field] of Object.entries(entity.fields))
          if (field.form && !field.readOnly && row[name] !== undefined) body[name] = row[name];
        const saved = await call(server, 'PUT', entityCalls(entity).update, { token: admin, body });
        expect(saved.status, `${entity.name} ${JSON.stringify(saved.body)}`).toBe(200);
      }
    }
  });

  it.skipIf(!available)("binds sensors and controllers to their device's thing model", async () => {
    const models = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string; thing_model: ThingModel }>(
        `SELECT d.id::text AS id, p.thing_model FROM iot_device d JOIN iot_product p ON p.id = d.product_id
            JOIN tenant t ON t.id = d.tenant_id WHERE t.tenant_code = 'demo'`,
      );
      return new Map(rows.map((row) => [row.id, row.thing_model]));
    });
    const keysOf = (deviceId: unknown) =>
      models.get(String(deviceId))!.properties.map((property) => property.key);

    const sensors = (await list(sensorInstanceEntity)).list;
    for (const sensor of sensors) {
      expect(sensor.deviceIdLabel).toBeTruthy();
      expect(keysOf(sensor.deviceId)).toContain(sensor.propertyKey);
    }
    const templates = new Map(
      (await list(controllerTemplateEntity)).list.map((row) => [String(row.id), row]),
    );
    for (const controller of (await list(controllerInstanceEntity)).list) {
      const template = templates.get(String(controller.templateId))!;
      const model = models.get(String(controller.deviceId))!;
      expect(keysOf(controller.deviceId)).toContain(controller.propertyKey);
      expect(model.commands.map((command) => command.key)).toContain(template.commandKey);
      expect(Number(controller.channel)).toBeLessThanOrEqual(Number(template.channels));
    }
  });

  it.skipIf(!available)('stores the demo files so they download', async () => {
    const files = (await list(iotDeviceFileEntity)).list;
    for (const file of files) {
      const url = new URL(DEVICE_FILE_CALLS.download, server.url);
      url.searchParams.set('id', String(file.id));
      const answer = await fetch(url, { headers: { authorization: `Bearer ${admin}` } });
      expect(answer.status).toBe(200);
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(Math.ceil(bytes.length / 1024)).toBe(file.sizeKb);
      if (file.fileKind === 'image') expect(imageTypeOf(bytes)).toBe('image/png');
      else expect(bytes.toString('utf8')).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it.skipIf(!available)('gives acme its posts and parameters in English', async () => {
    const acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const posts = (await list(sysPostEntity, {}, acme)).list.map((row) => row.postName);
    expect(posts).toContain('Gate keeper');
    expect((await list(sysParamEntity, {}, acme)).total).toBeGreaterThan(0);
  });
});
