import crypto from 'node:crypto';
import { ROLE_OPERATOR, TRACE_MAP_CALLS, type TraceMap } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { parentChildOtherZones, zoneConfinedUser } from '@shuili/test-support/test-zones';

/**
 * The digital map's call: the demo's bases, plots with outlines and plantings, and the plots'
 * devices; nothing of another tenant; a zone-confined user sees only the devices of their zones.
 */
describe.each(BACKENDS)('trace digital map on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let acme: string;
  const suffix = crypto.randomBytes(3).toString('hex');
  const zones = { parent: '', child: '', other: '' };
  const devices = { inChild: '', inOther: '' };
  let plotId = '';
  const test = it.skipIf(!available);
  const map = async (token: string) => {
    const answer = await call<{ data: TraceMap }>(server, 'GET', TRACE_MAP_CALLS.query, { token });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    Object.assign(zones, await parentChildOtherZones(server, 'Map ', suffix));
    // Two devices of a demo product on one demo plot: one in the child zone, one in the other.
    await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ tenant: string; product: string; plot: string }>(
        `SELECT t.id::text AS tenant,
                (SELECT min(p.id)::text FROM iot_product p WHERE p.tenant_id = t.id) AS product,
                (SELECT min(a.id)::text FROM trace_area a WHERE a.tenant_id = t.id) AS plot
           FROM tenant t WHERE t.tenant_code = 'demo'`,
      );
      const { tenant, product, plot } = rows[0]!;
      plotId = plot;
      const device = async (name: string, zoneId: string) => {
        const id = (
          await sql.query<{ id: string }>(
            `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, zone_id, status)
             VALUES ($1, $2, $3, $4, $5, 0) RETURNING id::text`,
            [tenant, `MAP-${suffix}-${name}`, `Map ${name} ${suffix}`, product, zoneId],
          )
        ).rows[0]!.id;
        await sql.query(
          `INSERT INTO trace_area_device (tenant_id, area_id, device_id) VALUES ($1, $2, $3)`,
          [tenant, plot, id],
        );
        return id;
      };
      devices.inChild = await device('child', zones.child);
      devices.inOther = await device('other', zones.other);
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('answers the demo bases, plots with outlines and plantings, and their devices', async () => {
    const answer = await map(admin);
    const located = answer.bases.filter((base) => base.lat !== null && base.lng !== null);
    expect(located.length).toBeGreaterThanOrEqual(2);
    const outlined = answer.plots.filter((plot) => plot.ring !== null);
    expect(outlined.length).toBeGreaterThanOrEqual(4);
    for (const plot of outlined) {
      // A closed ring near its base (the demo draws plots beside their base).
      const ring = plot.ring!;
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      const base = answer.bases.find((one) => one.id === plot.baseId)!;
      expect(Math.abs(ring[0]![1] - base.lat!)).toBeLessThan(0.05);
    }
    expect(answer.plots.some((plot) => plot.plantings.some((p) => p.state === 'growing'))).toBe(
      true,
    );
    const planting = answer.plots.flatMap((plot) => plot.plantings)[0]!;
    expect(planting.cropName).toBeTruthy();
    expect(planting.variety).toBeTruthy();
    expect(Date.parse(planting.sownAt)).not.toBeNaN();
    // Every plot's device is answered once, with its thing model and latest values.
    const ids = new Set(answer.devices.map((device) => device.id));
    expect(ids.size).toBe(answer.devices.length);
    for (const plot of answer.plots)
      for (const id of plot.deviceIds) expect(ids.has(id)).toBe(true);
    const linked = answer.devices.filter((device) => device.id !== devices.inChild);
    expect(linked.some((device) => Object.keys(device.values).length > 0)).toBe(true);
    expect(linked.every((device) => device.thingModel.properties.length > 0)).toBe(true);
    const plot = answer.plots.find((one) => one.id === plotId)!;
    expect(plot.deviceIds).toEqual(expect.arrayContaining([devices.inChild, devices.inOther]));
  });

  test("another tenant's map holds none of the demo's rows", async () => {
    const demo = await map(admin);
    const other = await map(acme);
    const ids = (answer: TraceMap) => [
      ...answer.bases.map((base) => `b${base.id}`),
      ...answer.plots.map((plot) => `p${plot.id}`),
      ...answer.devices.map((device) => `d${device.id}`),
    ];
    const theirs = new Set(ids(other));
    expect(ids(demo).filter((id) => theirs.has(id))).toEqual([]);
    expect(other.plots.some((plot) => plot.deviceIds.includes(devices.inChild))).toBe(false);
  });

  test('a zone-confined operator sees only the devices of their zones', async () => {
    const zoned = await zoneConfinedUser(server, {
      username: `mapzoned${suffix}`,
      roleCode: ROLE_OPERATOR,
      zoneIds: [zones.parent],
    });
    const answer = await map(zoned);
    const seen = answer.devices.map((device) => device.id);
    expect(seen).toContain(devices.inChild);
    expect(seen).not.toContain(devices.inOther);
    const plot = answer.plots.find((one) => one.id === plotId)!;
    expect(plot.deviceIds).toContain(devices.inChild);
    expect(plot.deviceIds).not.toContain(devices.inOther);
    // The plots and bases themselves are the tenant's, whatever the zones.
    expect(answer.plots.length).toBe((await map(admin)).plots.length);
  });
});
