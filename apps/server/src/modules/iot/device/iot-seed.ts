import { FACTORS, PRODUCTS } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/**
 * The IoT catalogue every tenant starts with: the factors and one product per device kind
 * (packages/contract/src/iot/factors.ts, products.ts). Names are stored in Chinese, the
 * language of the districts; existing rows (same code) are left as the tenant edited them.
 */
export async function seedIotCatalogue(sql: Sql, tenantId: string): Promise<void> {
  await sql.query(
    `INSERT INTO iot_factor (tenant_id, factor_code, factor_name, unit, precision, min_value, max_value, category)
     SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::int[]),
            unnest($6::double precision[]), unnest($7::double precision[]), unnest($8::text[])
     ON CONFLICT (tenant_id, factor_code) DO NOTHING`,
    [
      tenantId,
      FACTORS.map((factor) => factor.code),
      FACTORS.map((factor) => factor.name.zh),
      FACTORS.map((factor) => factor.unit),
      FACTORS.map((factor) => factor.precision),
      FACTORS.map((factor) => factor.min),
      FACTORS.map((factor) => factor.max),
      FACTORS.map((factor) => factor.category),
    ],
  );
  await sql.query(
    `INSERT INTO iot_product (tenant_id, serial_no, product_name, device_kind, protocol, description, thing_model)
     SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]),
            unnest($6::text[]), unnest($7::jsonb[])
     ON CONFLICT (tenant_id, serial_no) DO NOTHING`,
    [
      tenantId,
      PRODUCTS.map((product) => product.serialNo),
      PRODUCTS.map((product) => product.name.zh),
      PRODUCTS.map((product) => product.kind),
      PRODUCTS.map((product) => product.protocol),
      PRODUCTS.map((product) => product.description),
      PRODUCTS.map((product) => JSON.stringify(product.thingModel)),
    ],
  );
}

/** The demo district: a canal network south of Jinan (around 36.6° N, 117.0° E). */
const DEMO_ZONES = [
  { code: 'DEMO', name: '演示灌区', type: 'irrigation_district', parent: null },
  { code: 'DEMO-E', name: '东干渠', type: 'canal_section', parent: 'DEMO' },
  { code: 'DEMO-W', name: '西干渠', type: 'canal_section', parent: 'DEMO' },
  { code: 'DEMO-N', name: '北片灌溉区', type: 'plot_group', parent: 'DEMO' },
  { code: 'DEMO-S', name: '南片灌溉区', type: 'plot_group', parent: 'DEMO' },
] as const;

const DEMO_CENTRE = { lat: 36.6, lng: 117.0 };
const REGION_CODE = '370100';
/** Devices per product in the demo: enough to fill lists and maps, few enough to simulate. */
const DEVICES_PER_PRODUCT = 3;

/**
 * The demo tenant's district: zones (when it has none), a project, and a few devices of every
 * seeded product spread over the zones. Device credentials are issued by the broker's service.
 */
export async function seedDemoIot(sql: Sql, tenantId: string): Promise<void> {
  const zoneIds = await demoZones(sql, tenantId);
  const project = await sql.query<{ id: string }>(
    `INSERT INTO iot_project (tenant_id, project_no, project_name, zone_id, region_code, description)
     VALUES ($1, 'PRJ-2025-01', '高效节水灌溉示范项目', $2, $3, '演示灌区的高效节水灌溉与量测水设施建设')
     ON CONFLICT (tenant_id, project_no) DO UPDATE SET project_name = EXCLUDED.project_name
     RETURNING id`,
    [tenantId, zoneIds[0] ?? null, REGION_CODE],
  );
  const projectId = project.rows[0]!.id;
  const products = await sql.query<{ id: string; serial_no: string; product_name: string }>(
    `SELECT id, serial_no, product_name FROM iot_product WHERE tenant_id = $1 AND serial_no = ANY($2) ORDER BY id`,
    [tenantId, PRODUCTS.map((product) => product.serialNo)],
  );
  const leafZones = zoneIds.length > 1 ? zoneIds.slice(1) : zoneIds;
  const rows: Array<[string, string, string, string | null, number, number, string]> = [];
  products.rows.forEach((product, p) => {
    for (let n = 1; n <= DEVICES_PER_PRODUCT; n++) {
      const i = p * DEVICES_PER_PRODUCT + n;
      // A deterministic spiral around the centre: stable positions from run to run.
      const angle = i * 2.399963;
      const radius = 0.01 + 0.0045 * i;
      rows.push([
        `${product.serial_no}-${String(n).padStart(2, '0')}`,
        `${product.product_name} ${n}号`,
        product.id,
        leafZones[i % leafZones.length] ?? null,
        round6(DEMO_CENTRE.lat + radius * Math.sin(angle)),
        round6(DEMO_CENTRE.lng + radius * 1.25 * Math.cos(angle)),
        `演示灌区 ${1 + (i % 12)} 号斗渠`,
      ]);
    }
  });
  await sql.query(
    `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, project_id, zone_id, lat, lng,
                             install_address, install_date, installer, status)
     SELECT $1, d.no, d.name, d.product, $2, d.zone, d.lat, d.lng, d.address, now() - interval '120 days', '安装队', 0
       FROM unnest($3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::double precision[],
                   $8::double precision[], $9::text[])
            AS d(no, name, product, zone, lat, lng, address)
     ON CONFLICT (tenant_id, device_no) DO NOTHING`,
    [
      tenantId,
      projectId,
      rows.map((row) => row[0]),
      rows.map((row) => row[1]),
      rows.map((row) => row[2]),
      rows.map((row) => row[3]),
      rows.map((row) => row[4]),
      rows.map((row) => row[5]),
      rows.map((row) => row[6]),
    ],
  );
}

/** The ids of the demo zones, root first (created when the tenant has no zones yet). */
async function demoZones(sql: Sql, tenantId: string): Promise<string[]> {
  const existing = await sql.query<{ id: string }>(
    `SELECT id FROM sys_zone WHERE tenant_id = $1 ORDER BY zone_parent NULLS FIRST, zone_sequence, id`,
    [tenantId],
  );
  if (existing.rows.length > 0) return existing.rows.map((row) => row.id);
  const ids = new Map<string, string>();
  for (const [index, zone] of DEMO_ZONES.entries()) {
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_type, region_code, zone_sequence, zone_parent)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        tenantId,
        zone.name,
        zone.code,
        zone.type,
        REGION_CODE,
        index,
        zone.parent ? ids.get(zone.parent) : null,
      ],
    );
    ids.set(zone.code, inserted.rows[0]!.id);
  }
  return [...ids.values()];
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
