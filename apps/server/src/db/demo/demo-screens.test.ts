import {
  alarmRecordEntity,
  consumptionSessionEntity,
  controllerRecordEntity,
  alarmRuleEntity,
  AREA_DEVICE_CALLS,
  cardEntity,
  householdEntity,
  priceClassEntity,
  priceTierEntity,
  waterCoefficientEntity,
  waterRightEntity,
  wellBillingEntity,
  DEVICE_AREAS,
  areaOf,
  traceProducerEntity,
  traceBaseEntity,
  traceAreaEntity,
  tracePlantEntity,
  tracePlantingEntity,
  traceGrowthRecordEntity,
  traceFarmworkEntity,
  traceHarvestEntity,
  traceProcessEntity,
  traceProcessInputEntity,
  tracePackageEntity,
  traceShipmentEntity,
  controllerInstanceEntity,
  controllerTemplateEntity,
  dataPermissionEntity,
  DEVICE_FILE_CALLS,
  entityCalls,
  fertigationProgramEntity,
  fertilizerRecipeEntity,
  IRRIGATION_CALLS,
  iotCommandEntity,
  iotDeviceFileEntity,
  insectPhotoLabelEntity,
  insectSpeciesEntity,
  MONITOR_REPORT_CALLS,
  operationLogEntity,
  rotationScheduleEntity,
  sensorInstanceEntity,
  sensorTemplateEntity,
  soilMoistureRuleEntity,
  sysParamEntity,
  sysPostEntity,
  valveGroupEntity,
  WEATHER_CALLS,
  WORKBENCH_CALLS,
  type AreaDevicePage,
  type AreaReport,
  type DailyEt0,
  type EntityDef,
  type ThingModel,
  type WaterDelivered,
  type WorkbenchOverview,
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
  // The monitoring areas (issue 18): rules and alarms of every area, the irrigation plan, the
  // fertigation recipe and program.
  [alarmRuleEntity, {}],
  [alarmRecordEntity, {}],
  [valveGroupEntity, {}],
  [rotationScheduleEntity, {}],
  [soilMoistureRuleEntity, {}],
  [fertilizerRecipeEntity, {}],
  [fertigationProgramEntity, {}],
  // Insect traps (issue 19): the species catalogue and the species counted on trap photos.
  [insectSpeciesEntity, {}],
  [insectPhotoLabelEntity, {}],
  // Card-swipe billing (issue 20): households, cards, prices, wells, coefficients, water rights.
  [householdEntity, {}],
  [cardEntity, {}],
  [priceClassEntity, {}],
  [priceTierEntity, {}],
  [wellBillingEntity, {}],
  [waterCoefficientEntity, {}],
  [waterRightEntity, {}],
  // Two weeks of the wells' sessions (DEMO_CARD_SESSIONS), each upload posted once.
  [consumptionSessionEntity, {}],
  [controllerRecordEntity, { outcome: 'posted' }],
  // Farm traceability (demo-trace.ts): one chain from producer to shipment.
  [traceProducerEntity, {}],
  [traceBaseEntity, {}],
  [traceAreaEntity, {}],
  [tracePlantEntity, {}],
  [tracePlantingEntity, {}],
  [traceGrowthRecordEntity, {}],
  [traceFarmworkEntity, {}],
  [traceHarvestEntity, {}],
  [traceProcessEntity, {}],
  [traceProcessInputEntity, {}],
  [tracePackageEntity, {}],
  [traceShipmentEntity, {}],
];

const DAY_MS = 86_400_000;
/** A day of the demo's calendar (Asia/Shanghai), `days` from today. */
const localDay = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + days * DAY_MS),
  );

describe.each(BACKENDS)('the demo seed on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend, config: { demoCardSessions: true } });
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
      // The traceability rules (pre-harvest interval, mass balance) pass the demo's chain.
      traceProducerEntity,
      traceBaseEntity,
      traceAreaEntity,
      tracePlantEntity,
      tracePlantingEntity,
      traceGrowthRecordEntity,
      traceFarmworkEntity,
      traceHarvestEntity,
      traceProcessEntity,
      traceProcessInputEntity,
      tracePackageEntity,
      traceShipmentEntity,
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

  it.skipIf(!available)(
    'gives the monitoring screens a simulated past at first sight',
    async () => {
      const get = async <T>(url: string, query: Record<string, string> = {}): Promise<T> => {
        const answer = await call(server, 'GET', url, { token: admin, query });
        expect(answer.status, `${url} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
        return answer.body.data as T;
      };
      const end = new Date();
      const start = new Date(end.getTime() - 2 * DAY_MS);
      const first = new Map<string, string>();
      for (const area of DEVICE_AREAS) {
        // Every area's devices, with the values of their last readings.
        const page = await get<AreaDevicePage>(AREA_DEVICE_CALLS.query, { area: area.code });
        expect(page.total, area.code).toBeGreaterThan(0);
        expect(
          page.list.some((row) => Object.keys(row.values ?? {}).length > 0),
          area.code,
        ).toBe(true);
        first.set(area.code, page.list[0]!.id);
        // Its data report of the last two days, by hour.
        const report = await get<AreaReport>(MONITOR_REPORT_CALLS.query, {
          area: area.code,
          deviceIds: page.list[0]!.id,
          keys: area.reportFactors.join(','),
          start: start.toISOString(),
          end: end.toISOString(),
          bucket: 'hour',
        });
        expect(
          report.series.filter((series) => series.stats.count > 0).map((series) => series.key),
          area.code,
        ).toEqual([...area.reportFactors]);
      }
      // Water delivered per zone over the last three days.
      const water = await get<WaterDelivered>(IRRIGATION_CALLS.waterDelivered, {
        start: localDay(-2),
        end: localDay(0),
      });
      expect(water.volumes.reduce((sum, row) => sum + row.volume, 0)).toBeGreaterThan(0);
      // Yesterday's reference evapotranspiration at a weather station.
      const et0 = await get<DailyEt0>(WEATHER_CALLS.dailyEt0, {
        deviceId: first.get(areaOf('weatherStation')!.code)!,
        start: localDay(-1),
        end: localDay(-1),
      });
      expect(et0.list[0]!.et0, JSON.stringify(et0.list[0])).toBeGreaterThan(0);
      // The workbench: alarms waiting, operations, the map and the water section.
      const overview = await get<WorkbenchOverview>(WORKBENCH_CALLS.overview);
      expect(overview.alarms!.open).toBeGreaterThan(0);
      expect(overview.alarms!.recent.length).toBeGreaterThan(0);
      expect(overview.commands!.recent.length).toBeGreaterThan(0);
      expect(overview.map.ids.length).toBeGreaterThan(0);
      expect(overview.water!.month).toBeGreaterThanOrEqual(overview.water!.today);
    },
  );

  it.skipIf(!available)('gives acme its posts and parameters in English', async () => {
    const acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const posts = (await list(sysPostEntity, {}, acme)).list.map((row) => row.postName);
    expect(posts).toContain('Gate keeper');
    expect((await list(sysParamEntity, {}, acme)).total).toBeGreaterThan(0);
  });
});
