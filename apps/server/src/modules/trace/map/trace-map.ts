import { ALARM_LEVELS, iotDeviceEntity, type TraceMap } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { DataFieldService } from '../../../entity/data-field.service';
import { readableFields, type FieldGrants } from '../../../entity/field-grants';
import type { AuthContext } from '../../../http/request-context';
import { thingModelOf } from '../../iot/device/device-directory';
import { areaDeviceRepo } from '../../monitor/area-device.repo';
import { polygonRing } from '../trace-geo';

const dataFields = new DataFieldService();
const iso = (ref: string) => `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The highest alarm of device `d` still wanting attention (as the area device list reads it). */
const ALARM_LEVEL = `(SELECT a.level FROM iot_alarm_record a
  WHERE a.device_id = d.id AND (a.state = 'open' OR a.acknowledged_at IS NULL)
  ORDER BY array_position(ARRAY['${ALARM_LEVELS.join("','")}'], a.level) DESC NULLS LAST LIMIT 1)`;

interface DeviceDbRow {
  area_id: string;
  id: string;
  device_no: string;
  device_name: string;
  product_id: string;
  thing_model: unknown;
  online: boolean;
  status: number;
  last_seen: string | null;
  zone_id: string | null;
  zone_name: string | null;
  lat: number | null;
  lng: number | null;
  alarm_level: string | null;
}

/**
 * The digital map (docs/traceability.md "Digital map"): bases, plots with their outer ring and
 * plantings, and the plots' devices with state and latest values, read in the caller's tenant
 * transaction. Row-level security keeps the tenant's rows and, of its devices, those of the
 * caller's zones and projects: a plot's device outside them is not answered. The device fields
 * follow the device list's data permissions and grants, as the area device list's do.
 */
export async function readTraceMap(
  db: Database,
  grants: FieldGrants,
  auth: AuthContext,
): Promise<TraceMap> {
  return db.tenant(auth, async (sql) => {
    const readable = await readableFields(
      iotDeviceEntity,
      await dataFields.visible(sql, auth.activeRole, iotDeviceEntity.menuCode),
      auth,
      grants,
    );
    const may = (field: string) => !readable || readable.has(field);
    const bases = await basesOf(sql);
    const plots = await plotsOf(sql);
    const devices = await devicesOf(sql, may('alarmLevel'));
    const byPlot = new Map<string, string[]>();
    for (const row of devices)
      byPlot.set(row.area_id, [...(byPlot.get(row.area_id) ?? []), row.id]);
    const unique = new Map(devices.map((row) => [row.id, row]));
    const answered = [...unique.values()].map((row) => ({
      id: row.id,
      deviceNo: row.device_no,
      deviceName: row.device_name,
      online: row.online,
      status: row.status,
      lastSeen: may('lastSeen') ? row.last_seen : null,
      zoneId: may('zoneId') ? row.zone_id : null,
      zoneName: may('zoneId') ? row.zone_name : null,
      lat: may('lat') ? row.lat : null,
      lng: may('lng') ? row.lng : null,
      alarmLevel: may('alarmLevel') ? row.alarm_level : null,
      thingModel: thingModelOf(row.thing_model),
      values: {} as Record<string, number | string | null>,
      valueTimes: {} as Record<string, string>,
    }));
    if (may('keyValues')) {
      const byId = new Map(answered.map((device) => [device.id, device]));
      for (const reading of await areaDeviceRepo.latest(sql, auth.tenantId, [...byId.keys()])) {
        const device = byId.get(reading.device_id)!;
        device.values[reading.key] = reading.value ?? reading.text_value;
        device.valueTimes[reading.key] = reading.ts;
      }
    }
    return {
      bases,
      plots: plots.map((plot) => ({ ...plot, deviceIds: byPlot.get(plot.id) ?? [] })),
      devices: answered,
    };
  });
}

async function basesOf(sql: Sql): Promise<TraceMap['bases']> {
  const { rows } = await sql.query<{
    id: string;
    base_name: string;
    village: string;
    longitude: number | null;
    latitude: number | null;
    area_mu: number | null;
  }>(
    `SELECT id::text, base_name, village, longitude, latitude, area_mu
       FROM trace_base ORDER BY base_name, id`,
  );
  return rows.map((row) => ({
    id: row.id,
    baseName: row.base_name,
    village: row.village,
    lng: row.longitude,
    lat: row.latitude,
    areaMu: row.area_mu,
  }));
}

async function plotsOf(sql: Sql): Promise<Omit<TraceMap['plots'][number], 'deviceIds'>[]> {
  const { rows } = await sql.query<{
    id: string;
    area_name: string;
    base_id: string;
    polygon: string | null;
    area_mu: number | null;
    soil: string | null;
  }>(
    `SELECT id::text, area_name, base_id::text, polygon, area_mu, soil
       FROM trace_area ORDER BY area_name, id`,
  );
  const { rows: plantings } = await sql.query<{
    id: string;
    area_id: string;
    planting_code: string | null;
    crop_name: string;
    variety: string;
    sown_at: string;
    expected_harvest_at: string | null;
    state: string;
  }>(
    `SELECT pl.id::text, pl.area_id::text, pl.planting_code, p.crop_name, p.variety,
            ${iso('pl.sown_at')} AS sown_at, ${iso('pl.expected_harvest_at')} AS expected_harvest_at,
            pl.state
       FROM trace_planting pl JOIN trace_plant p ON p.id = pl.plant_id
      ORDER BY pl.sown_at DESC, pl.id DESC`,
  );
  return rows.map((row) => ({
    id: row.id,
    areaName: row.area_name,
    baseId: row.base_id,
    ring: row.polygon ? (polygonRing(row.polygon) ?? null) : null,
    areaMu: row.area_mu,
    soil: row.soil,
    plantings: plantings
      .filter((planting) => planting.area_id === row.id)
      .map((planting) => ({
        id: planting.id,
        plantingCode: planting.planting_code,
        cropName: planting.crop_name,
        variety: planting.variety,
        sownAt: planting.sown_at,
        expectedHarvestAt: planting.expected_harvest_at,
        state: planting.state,
      })),
  }));
}

async function devicesOf(sql: Sql, withAlarms: boolean): Promise<DeviceDbRow[]> {
  const { rows } = await sql.query<DeviceDbRow>(
    `SELECT ad.area_id::text, d.id::text, d.device_no, d.device_name, d.product_id::text,
            p.thing_model, d.online, d.status, ${iso('d.last_seen')} AS last_seen,
            d.zone_id::text, z.zone_name, d.lat, d.lng,
            ${withAlarms ? ALARM_LEVEL : 'NULL::text'} AS alarm_level
       FROM trace_area_device ad
       JOIN iot_device d ON d.id = ad.device_id
       JOIN iot_product p ON p.id = d.product_id
       LEFT JOIN sys_zone z ON z.id = d.zone_id
      ORDER BY d.device_no, d.id`,
  );
  return rows;
}
