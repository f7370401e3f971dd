import {
  DEVICE_FILE_CALLS,
  DEVICE_UPLOAD_CALL,
  deviceBasicAuth,
  entityCalls,
  INSECT_CALLS,
  insectPhotoLabelEntity,
  insectSpeciesEntity,
  type TrapPhotos,
} from '@shuili/contract';
import { createEnvironment, createRandom, VirtualDevice } from '@shuili/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

const LABELS = entityCalls(insectPhotoLabelEntity);
const SPECIES = entityCalls(insectSpeciesEntity);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

/** A seeded device's id and an image of it (the demo seeds trap photos and a gate photo). */
async function imageOf(server: TestServer, deviceNo: string) {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ device_id: string; file_id: string }>(
      `SELECT d.id::text AS device_id, f.id::text AS file_id
         FROM iot_device d JOIN tenant t ON t.id = d.tenant_id
         JOIN iot_device_file f ON f.device_id = d.id AND f.file_kind = 'image'
        WHERE t.tenant_code = 'demo' AND d.device_no = $1
        ORDER BY f.created_at DESC LIMIT 1`,
      [deviceNo],
    ),
  );
  return { deviceId: rows[0]!.device_id, fileId: rows[0]!.file_id };
}

describe.each(BACKENDS)('insect traps on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let admin: string;
  let acme: string;
  const running: VirtualDevice[] = [];

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
  });

  afterAll(async () => {
    await Promise.all(running.map((device) => device.stop()));
    await server?.close();
  });

  const gallery = async (deviceId: string, day?: string) => {
    const result = await call<{ data: TrapPhotos }>(server, 'GET', INSECT_CALLS.photos, {
      token: admin,
      query: { deviceId, day },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.data;
  };

  test('counts species on a trap photo: labels are created, edited and deleted', async () => {
    const trap = await imageOf(server, 'INSECT-LAMP-01');
    const species = await call(server, 'POST', SPECIES.add, {
      token: admin,
      body: { nameZh: '测试夜蛾', nameLatin: 'Spodoptera testis', insectOrder: 'lepidoptera' },
    });
    expect(species.status, JSON.stringify(species.body)).toBe(200);
    const speciesId = String(species.body.data.id);

    const created = await call(server, 'POST', LABELS.add, {
      token: admin,
      body: { fileId: trap.fileId, speciesId, insectCount: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const labelId = String(created.body.data.id);
    // The label takes its photo's device (so it follows the device's zones).
    expect(String(created.body.data.deviceId)).toBe(trap.deviceId);

    const photoDay = async () => {
      const days = await call(server, 'GET', INSECT_CALLS.photoDays, {
        token: admin,
        query: { deviceId: trap.deviceId },
      });
      expect(days.status).toBe(200);
      for (const { day } of days.body.data as Array<{ day: string }>) {
        const photos = await gallery(trap.deviceId, day);
        const photo = photos.photos.find((one) => one.id === trap.fileId);
        if (photo) return { photos, photo };
      }
      throw new Error('the labelled photo is in no day of the gallery');
    };
    let { photos, photo } = await photoDay();
    expect(photo.labels).toContainEqual(expect.objectContaining({ speciesId, insectCount: 7 }));
    expect(photos.speciesTotals).toContainEqual(
      expect.objectContaining({ speciesId, nameZh: '测试夜蛾', insectCount: 7 }),
    );

    const edited = await call(server, 'PUT', LABELS.update, {
      token: admin,
      body: { id: labelId, speciesId, insectCount: 12 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    ({ photos, photo } = await photoDay());
    expect(photo.labels.find((label) => label.id === labelId)?.insectCount).toBe(12);
    expect(photos.speciesTotals.find((total) => total.speciesId === speciesId)?.insectCount).toBe(
      12,
    );

    // One count per species and photo.
    const twice = await call(server, 'POST', LABELS.add, {
      token: admin,
      body: { fileId: trap.fileId, speciesId, insectCount: 1 },
    });
    expect(twice.status).toBe(409);

    // A species still counted on a photo is not deleted from the catalogue.
    const inUse = await call(server, 'POST', SPECIES.delete, {
      token: admin,
      query: { id: speciesId },
    });
    expect(inUse.status).toBe(409);

    const removed = await call(server, 'POST', LABELS.delete, {
      token: admin,
      query: { id: labelId },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    ({ photos, photo } = await photoDay());
    expect(photo.labels.some((label) => label.id === labelId)).toBe(false);
    expect(photos.speciesTotals.some((total) => total.speciesId === speciesId)).toBe(false);
  });

  test('an operator labels photos and reads the catalogue, but does not edit it', async () => {
    const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const trap = await imageOf(server, 'INSECT-LAMP-03');
    const species = await call(server, 'GET', SPECIES.query, {
      token: operator,
      query: { currentPage: '1', pageSize: '50' },
    });
    expect(species.status).toBe(200);
    const rows = species.body.data.list as Array<{ id: string; pictureKey?: string }>;
    expect(rows.length).toBeGreaterThanOrEqual(12);
    // The picture's storage key never leaves the server; the picture itself does.
    expect(rows.every((row) => row.pictureKey === undefined)).toBe(true);
    const picture = await fetch(`${server.url}${INSECT_CALLS.speciesPicture}?id=${rows[0]!.id}`, {
      headers: { authorization: `Bearer ${operator}` },
    });
    expect(picture.status).toBe(200);
    expect([...new Uint8Array(await picture.arrayBuffer()).subarray(0, 4)]).toEqual(PNG_SIGNATURE);

    const label = await call(server, 'POST', LABELS.add, {
      token: operator,
      body: { fileId: trap.fileId, speciesId: String(rows.at(-1)!.id), insectCount: 4 },
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    const latest = await call(server, 'GET', INSECT_CALLS.latestPhotos, {
      token: operator,
      query: { deviceIds: trap.deviceId },
    });
    expect(latest.body.data).toEqual([expect.objectContaining({ id: trap.fileId })]);

    const add = await call(server, 'POST', SPECIES.add, {
      token: operator,
      body: { nameZh: '操作员虫', nameLatin: 'Operator insectus', insectOrder: 'other' },
    });
    expect(add.status).toBe(403);
  });

  test('refuses a label on an unknown species, another tenant’s photo or a photo of no trap', async () => {
    const trap = await imageOf(server, 'INSECT-LAMP-01');
    const gate = await imageOf(server, 'GATE-1-01');
    const species = await call(server, 'GET', SPECIES.query, {
      token: admin,
      query: { currentPage: '1', pageSize: '1' },
    });
    const speciesId = String(species.body.data.list[0].id);
    const refused = async (token: string, body: Record<string, unknown>, field: string) => {
      const result = await call(server, 'POST', LABELS.add, { token, body, lang: 'en' });
      expect(result.status, JSON.stringify(result.body)).toBe(400);
      expect(result.body.errors?.[0]?.field).toBe(field);
      return result.body.errors[0].message as string;
    };
    expect(
      await refused(
        admin,
        { fileId: trap.fileId, speciesId: '987654321', insectCount: 3 },
        'speciesId',
      ),
    ).toMatch(/Species/);
    // acme's administrator cannot reach demo's photo (nor demo's species).
    await refused(acme, { fileId: trap.fileId, speciesId, insectCount: 3 }, 'fileId');
    expect(
      await refused(admin, { fileId: gate.fileId, speciesId, insectCount: 3 }, 'fileId'),
    ).toMatch(/not a photo of an insect trap/);
    const negative = await call(server, 'POST', LABELS.add, {
      token: admin,
      body: { fileId: trap.fileId, speciesId, insectCount: -1 },
    });
    expect(negative.status).toBe(400);
    expect(negative.body.errors?.[0]?.field).toBe('insectCount');
    // Nothing was written by the refusals.
    const { rows } = await server.db.system((sql) =>
      sql.query('SELECT 1 FROM monitor_insect_photo_label WHERE file_id = $1 AND species_id = $2', [
        trap.fileId,
        speciesId,
      ]),
    );
    expect(rows).toHaveLength(0);
  });

  test('a simulated trap uploads its photo through the device API; it lists in that day’s gallery', async () => {
    const issued = await server.app.deviceCredentials.issueDemoCredentials('demo');
    const credential = issued.find((device) => device.deviceNo === 'INSECT-LAMP-02')!;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ thing_model: never }>(
        `SELECT p.thing_model FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE d.id = $1`,
        [credential.deviceId],
      ),
    );
    const before = await gallery(credential.deviceId);

    // Wrong secrets upload nothing.
    const forged = await fetch(`${server.url}${DEVICE_UPLOAD_CALL}?fileName=x.png`, {
      method: 'POST',
      headers: {
        authorization: deviceBasicAuth(credential.identity, 'not-the-secret'),
        'content-type': 'application/octet-stream',
      },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    expect(forged.status).toBe(401);

    const { tcpPort } = server.app.deviceTransport.endpoints();
    const device = new VirtualDevice({
      brokerUrl: `mqtt://127.0.0.1:${tcpPort}`,
      uploadUrl: server.url.replace(/\/$/, ''),
      identity: credential.identity,
      secret: credential.secret,
      kind: 'insect_trap',
      thingModel: rows[0]!.thing_model,
      intervalMs: 60_000,
      random: createRandom(5),
      env: createEnvironment({ random: createRandom(6), start: Date.now(), rain: [] }),
      offlineProbability: 0,
    });
    running.push(device);
    await device.start();
    const sent = await call(server, 'POST', '/api/iot/command/sendCommand', {
      token: admin,
      body: { deviceId: credential.deviceId, name: 'takePhoto', params: {} },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const deadline = Date.now() + 30_000;
    let after = before;
    while (after.photos.length === before.photos.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await gallery(credential.deviceId, before.day);
    }
    const fresh = after.photos.filter(
      (photo) => !before.photos.some((earlier) => earlier.id === photo.id),
    );
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.fileName).toMatch(/^INSECT-LAMP-02-\d{8}-\d{4}\.png$/);
    expect(device.stats.photos).toBe(1);

    // The stored bytes are the PNG the trap drew.
    const download = await fetch(`${server.url}${DEVICE_FILE_CALLS.download}?id=${fresh[0]!.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
    expect(bytes.length).toBeLessThan(100_000);
  });
});
