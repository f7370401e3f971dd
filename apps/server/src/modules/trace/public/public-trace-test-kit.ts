import { newTraceCode, type ThingModel } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { ingestRepo } from '../../iot/telemetry/ingest.repo';
import { createTestDevice } from '../../iot/telemetry/telemetry-test-fixtures';

/** Test data of the public trace page (public-trace.test.ts, e2e/trace-public.test.ts). */

const DAY = 86_400_000;
const label = { en: 'x', zh: 'x', tw: 'x' };
/** A plot station: rain, air temperature and soil moisture at 10 cm. */
const STATION: ThingModel = {
  properties: [
    { key: 'rainfall', factor: 'rainfall', type: 'number', name: label, access: 'r' },
    { key: 'airTemperature', factor: 'airTemperature', type: 'number', name: label, access: 'r' },
    { key: 'soilMoisture10', factor: 'soilMoisture', type: 'number', name: label, access: 'r' },
  ],
  events: [],
  commands: [],
};

export interface Chain {
  code: string;
  harvestId: string;
  packageId: string;
  marker: string;
}

/**
 * A whole chain of one tenant, as the console would record it: producer, base, plot with a
 * station, variety, planting, a spraying (7-day interval, 10 days before harvest), harvest,
 * package batch, shipment; and the station's readings during growth (hourly rain of 0.5 mm,
 * temperatures 10…30 °C, soil moisture 20…40 %). Names carry the tenant's marker.
 */
export async function seedChain(db: Database, tenantCode: string, marker: string): Promise<Chain> {
  const device = await createTestDevice(db, tenantCode, STATION, `station ${marker}`);
  const sownAt = new Date(Date.now() - 40 * DAY);
  const harvestedAt = new Date(Date.now() - 5 * DAY);
  const code = newTraceCode();
  return db.system(async (sql) => {
    const t = device.tenantId;
    const one = async (text: string, params: unknown[]) =>
      (await sql.query<{ id: string }>(`${text} RETURNING id::text AS id`, params)).rows[0]!.id;
    const producer = await one(
      `INSERT INTO trace_producer (tenant_id, producer_name, producer_code, commitment)
       VALUES ($1, $2, $3, 'No banned pesticides')`,
      [t, `Producer ${marker}`, `P-${marker}`],
    );
    const base = await one(
      `INSERT INTO trace_base (tenant_id, base_name, producer_id, village, address, longitude, latitude)
       VALUES ($1, $2, $3, $4, $5, 116.123456, 39.654321)`,
      [t, `Base ${marker}`, producer, `Village ${marker}`, `Secret address ${marker}`],
    );
    const area = await one(
      `INSERT INTO trace_area (tenant_id, area_name, base_id, area_mu) VALUES ($1, $2, $3, 12.5)`,
      [t, `Plot ${marker}`, base],
    );
    await sql.query(
      `INSERT INTO trace_area_device (tenant_id, area_id, device_id) VALUES ($1, $2, $3)`,
      [t, area, device.deviceId],
    );
    const plant = await one(
      `INSERT INTO trace_plant (tenant_id, crop_name, variety) VALUES ($1, $2, $3)`,
      [t, `Rice ${marker}`, `Variety ${marker}`],
    );
    const planting = await one(
      `INSERT INTO trace_planting (tenant_id, planting_code, area_id, plant_id, sown_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [t, `PL-${marker}`, area, plant, sownAt.toISOString()],
    );
    await sql.query(
      `INSERT INTO trace_farmwork (tenant_id, planting_id, work_type, product, dose, dose_unit, done_at, phi_days)
       VALUES ($1, $2, 'spraying', $3, 1.5, 'L/mu', $4, 7),
              ($1, $2, 'fertilizing', 'Urea', 20, 'kg/mu', $5, NULL)`,
      [
        t,
        planting,
        `Pesticide ${marker}`,
        new Date(harvestedAt.getTime() - 10 * DAY).toISOString(),
        new Date(sownAt.getTime() + 3 * DAY).toISOString(),
      ],
    );
    const harvest = await one(
      `INSERT INTO trace_harvest (tenant_id, batch_no, planting_id, harvested_at, quantity)
       VALUES ($1, $2, $3, $4, 1000)`,
      [t, `H-${marker}`, planting, harvestedAt.toISOString()],
    );
    const pkg = await one(
      `INSERT INTO trace_package (tenant_id, trace_code, harvest_id, lot, package_count, net_quantity, packed_at)
       VALUES ($1, $2, $3, $4, 100, 5, $5)`,
      [t, code, harvest, `LOT-${marker}`, new Date(harvestedAt.getTime() + DAY).toISOString()],
    );
    await sql.query(
      `INSERT INTO trace_shipment (tenant_id, package_id, package_count, carrier, from_place, to_place,
                                   departed_at, arrived_at, temperatures)
       VALUES ($1, $2, 40, $3, $4, $5, $6, $7, '[{"at":"x","celsius":4},{"at":"y","celsius":7.5}]')`,
      [
        t,
        pkg,
        `Carrier ${marker}`,
        `Warehouse ${marker}`,
        `Market ${marker}`,
        new Date(harvestedAt.getTime() + 2 * DAY).toISOString(),
        new Date(harvestedAt.getTime() + 3 * DAY).toISOString(),
      ],
    );
    // Hourly readings for the 35 days of growth.
    const hours = Math.floor((harvestedAt.getTime() - sownAt.getTime()) / 3_600_000);
    const instants = Array.from(
      { length: hours },
      (_, i) => new Date(sownAt.getTime() + (i + 1) * 3_600_000),
    );
    await ingestRepo.ensurePartitions(sql, [sownAt, harvestedAt]);
    await sql.query(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
       SELECT $1, $2, k.key, u.ts, CASE k.key WHEN 'rainfall' THEN 0.5
                                             WHEN 'airTemperature' THEN 10 + (u.n % 21)
                                             ELSE 20 + (u.n % 21) END
         FROM unnest($3::timestamptz[]) WITH ORDINALITY AS u(ts, n)
        CROSS JOIN (VALUES ('rainfall'), ('airTemperature'), ('soilMoisture10')) AS k(key)`,
      [t, device.deviceId, instants.map((at) => at.toISOString())],
    );
    return { code, harvestId: harvest, packageId: pkg, marker: marker.toLowerCase() };
  });
}
