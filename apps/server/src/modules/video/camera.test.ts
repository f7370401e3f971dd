import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  cameraEntity,
  entityCalls,
  ROLE_ADMIN,
  VIDEO_CALLS,
  type CameraListItem,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { parentChildOtherZones, zoneConfinedUser } from '@shuili/test-support/test-zones';
import { gatePhoto } from '../../db/demo/demo-png';

/*
 * Cameras (issue 19 item 7) against the real server: the entity's validation names the field,
 * GET queryAllCamera answers the cameras of the caller's zones only (row-level security, like
 * the device lists), and snapshots land among the camera device's images, posted by the browser
 * or fetched by the server from an address it is allowed to reach.
 */
describe.each(BACKENDS)('cameras on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  /** A local "camera" answering its snapshot URL with a PNG. */
  let camera: http.Server;
  let cameraPort: number;
  const suffix = crypto.randomBytes(3).toString('hex');
  const zones = { parent: '', child: '', other: '' };
  const cameras = { inChild: '', inOther: '' };
  let cameraDevice = '';
  let valveDevice = '';
  const calls = entityCalls(cameraEntity);

  beforeAll(async () => {
    if (!available) return;
    camera = http.createServer((request, response) => {
      if (request.url === '/snap.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(gatePhoto());
      } else if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        response.end();
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    cameraPort = (camera.address() as AddressInfo).port;
    // The administrator allowed the camera network (here: loopback) and nothing else private.
    server = await startTestServer({ backend, config: { videoSnapshotHosts: ['127.0.0.1'] } });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    Object.assign(zones, await parentChildOtherZones(server, 'Cam ', suffix));
    await server.db.system(async (sql) => {
      tenantId = (
        await sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`)
      ).rows[0]!.id;
      const deviceOf = async (serial: string) =>
        (
          await sql.query<{ id: string }>(
            `SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
              WHERE d.tenant_id = $1 AND p.serial_no = $2 ORDER BY d.id LIMIT 1`,
            [tenantId, serial],
          )
        ).rows[0]!.id;
      cameraDevice = await deviceOf('CAM-PTZ');
      valveDevice = await deviceOf('IRR-VALVE-4');
    });
    const add = async (name: string, zoneId: string, snapshotUrl?: string) => {
      const added = await call(server, 'POST', calls.add, {
        token,
        body: {
          cameraName: `${name} ${suffix}`,
          zoneId,
          deviceId: cameraDevice,
          streamType: 'hls',
          streamUrl: `https://nvr.example.net/${name}/index.m3u8`,
          ...(snapshotUrl ? { snapshotUrl } : {}),
          lng: 117.01,
          lat: 36.61,
        },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      return String(added.body.data.id);
    };
    cameras.inChild = await add('child', zones.child, `http://127.0.0.1:${cameraPort}/snap.png`);
    cameras.inOther = await add('other', zones.other);
  });
  afterAll(async () => {
    await server?.close();
    camera?.close();
  });

  const all = async (as: string, zoneId?: string) => {
    const answer = await call(server, 'GET', VIDEO_CALLS.queryAll, {
      token: as,
      query: { zoneId },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as CameraListItem[];
  };
  const ours = (list: CameraListItem[]) =>
    list.map((one) => one.id).filter((id) => Object.values(cameras).includes(id));

  test('queryAllCamera answers the enabled cameras, the demo ones and a zone with those below', async () => {
    const list = await all(token);
    expect(ours(list).sort()).toEqual(Object.values(cameras).sort());
    // The demo district's cameras play the clip the server serves itself.
    const demo = list.filter((one) => one.streamUrl === '/media/video/demo/index.m3u8');
    expect(demo.length).toBeGreaterThanOrEqual(3);
    expect(demo.some((one) => one.deviceNo?.startsWith('CAM-PTZ-'))).toBe(true);
    const child = list.find((one) => one.id === cameras.inChild)!;
    expect(child).toMatchObject({
      cameraName: `child ${suffix}`,
      zoneName: `Cam Child ${suffix}`,
      deviceId: cameraDevice,
      streamType: 'hls',
      lng: 117.01,
      lat: 36.61,
    });
    expect(ours(await all(token, zones.parent))).toEqual([cameras.inChild]);
    expect(ours(await all(token, zones.other))).toEqual([cameras.inOther]);
    // A disabled camera leaves the grid (the management list still has it).
    const disabled = await call(server, 'POST', calls.status, {
      token,
      body: { ids: [cameras.inOther], status: 0 },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(ours(await all(token))).toEqual([cameras.inChild]);
    await call(server, 'POST', calls.status, {
      token,
      body: { ids: [cameras.inOther], status: 1 },
    });
    // The demo clip is served by the server itself, publicly, as HLS; nothing but its files.
    const playlist = await fetch(`${server.url}/media/video/demo/index.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(await playlist.text()).toContain('#EXTM3U');
    expect((await fetch(`${server.url}/media/video/demo/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  test('a zone-confined administrator sees and manages only the cameras of that zone', async () => {
    const zoned = await zoneConfinedUser(server, {
      username: `camzone${suffix}`,
      roleCode: ROLE_ADMIN,
      zoneIds: [zones.parent],
    });

    const everything = await all(token);
    const seen = await all(zoned);
    // Only the camera of the zone below theirs: fewer than the whole tenant's.
    expect(seen.map((one) => one.id)).toEqual([cameras.inChild]);
    expect(seen.length).toBeLessThan(everything.length);
    // Their camera's device lies outside their zones: they do not learn of it.
    expect(seen[0]).toMatchObject({ deviceId: null, deviceNo: null });
    // Asking for another zone does not widen the scope.
    expect(await all(zoned, zones.other)).toEqual([]);
    // Nor can they place a camera outside their zones, or move theirs out.
    const outside = await call(server, 'POST', calls.add, {
      token: zoned,
      body: {
        cameraName: `outside ${suffix}`,
        zoneId: zones.other,
        streamType: 'hls',
        streamUrl: 'https://nvr.example.net/outside/index.m3u8',
      },
    });
    expect(outside.status, JSON.stringify(outside.body)).toBe(403);
    const moved = await call(server, 'PUT', calls.update, {
      token: zoned,
      body: { id: cameras.inChild, zoneId: zones.other },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(403);
    expect(ours(await all(token, zones.child))).toEqual([cameras.inChild]);
  });

  test('validation names the field: addresses, stream type, the camera device', async () => {
    const base = {
      cameraName: `bad ${suffix}`,
      zoneId: zones.child,
      streamType: 'hls',
      streamUrl: 'https://nvr.example.net/x/index.m3u8',
    };
    const refused = async (body: Record<string, unknown>, field: string, lang = 'en') => {
      const answer = await call(server, 'POST', calls.add, { token, lang, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      const problem = answer.body.errors.find((one: { field: string }) => one.field === field);
      expect(problem, JSON.stringify(answer.body)).toBeDefined();
      return problem.message as string;
    };
    expect(await refused({ ...base, streamUrl: 'rtsp://10.0.0.9/live' }, 'streamUrl')).toMatch(
      /^Stream URL must be an http or https address/,
    );
    expect(await refused({ ...base, streamUrl: 'javascript:alert(1)' }, 'streamUrl', 'zh')).toMatch(
      /^视频流地址须为 http 或 https 地址/,
    );
    await refused({ ...base, snapshotUrl: 'not a url' }, 'snapshotUrl');
    expect(await refused({ ...base, streamType: 'rtsp' }, 'streamType')).toMatch(/^Stream type/);
    await refused({ ...base, streamUrl: undefined }, 'streamUrl');
    await refused({ ...base, lat: 91 }, 'lat');
    expect(await refused({ ...base, deviceId: valveDevice }, 'deviceId')).toMatch(
      /must be a camera device/,
    );
    // Nothing half-written: none of them was stored.
    const stored = await server.db.system((sql) =>
      sql.query('SELECT 1 FROM video_camera WHERE camera_name = $1', [`bad ${suffix}`]),
    );
    expect(stored.rows).toEqual([]);
  });

  const imagesOf = (deviceId: string) =>
    server.db.system(
      async (sql) =>
        (
          await sql.query<{ id: string; original_name: string; content_type: string }>(
            `SELECT id::text, original_name, content_type FROM iot_device_file
            WHERE device_id = $1 AND file_kind = 'image' ORDER BY id`,
            [deviceId],
          )
        ).rows,
    );

  test('a snapshot posted by the browser lands among the camera device images', async () => {
    const before = await imagesOf(cameraDevice);
    // The frame's bytes as the browser posts them (canvas.toBlob).
    const posted = await fetch(`${server.url}${VIDEO_CALLS.snapshot}?id=${cameras.inOther}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: new Uint8Array(gatePhoto()),
    });
    const body = (await posted.json()) as { data: { fileId: string; deviceId: string } };
    expect(posted.status, JSON.stringify(body)).toBe(200);
    expect(body.data.deviceId).toBe(cameraDevice);
    const after = await imagesOf(cameraDevice);
    const added = after.find((one) => one.id === body.data.fileId)!;
    expect(added.original_name).toMatch(
      new RegExp(`^other_${suffix}_\\d{4}-\\d{2}-\\d{2} .*\\.png$`),
    );
    expect(added.content_type).toBe('image/png');
    expect(after.length).toBeGreaterThan(before.length);
    // Bytes that are no image are refused, naming the file.
    const junk = await fetch(`${server.url}${VIDEO_CALLS.snapshot}?id=${cameras.inOther}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: new TextEncoder().encode('<svg onload=alert(1)>'),
    });
    expect(junk.status).toBe(400);
  });

  test('the operator watches the grid and takes snapshots, but manages no camera', async () => {
    const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    expect(ours(await all(operator)).sort()).toEqual(Object.values(cameras).sort());
    const posted = await fetch(`${server.url}${VIDEO_CALLS.snapshot}?id=${cameras.inChild}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(gatePhoto()),
    });
    expect(posted.status).toBe(200);
    const added = await call(server, 'POST', calls.add, {
      token: operator,
      body: { cameraName: `op ${suffix}`, zoneId: zones.child, streamUrl: '/x.m3u8' },
    });
    expect(added.status).toBe(403);
    const removed = await call(server, 'POST', calls.delete, {
      token: operator,
      body: { id: cameras.inChild },
    });
    expect(removed.status).toBe(403);
  });

  test('the server fetches a snapshot only from an address it may reach', async () => {
    const snapshot = (id: string) =>
      call(server, 'POST', VIDEO_CALLS.snapshot, { token, query: { id } });
    // The allowed camera network (VIDEO_SNAPSHOT_HOSTS): fetched and stored.
    const fetched = await snapshot(cameras.inChild);
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    const stored = (await imagesOf(cameraDevice)).find(
      (one) => one.id === fetched.body.data.fileId,
    );
    expect(stored?.content_type).toBe('image/png');

    // Internal addresses nobody allowed, a redirect towards one, and a camera without a URL.
    const setSnapshot = async (snapshotUrl: string) => {
      const updated = await call(server, 'PUT', calls.update, {
        token,
        body: { id: cameras.inOther, snapshotUrl },
      });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    };
    for (const address of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/snap.jpg',
      `http://[::1]:${cameraPort}/snap.png`,
      `http://0.0.0.0:${cameraPort}/snap.png`,
    ]) {
      await setSnapshot(address);
      const refused = await snapshot(cameras.inOther);
      expect(refused.status, address).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'snapshotUrl' });
      expect(refused.body.message).toMatch(/may not fetch/);
    }
    await setSnapshot(`http://127.0.0.1:${cameraPort}/redirect`);
    const redirected = await snapshot(cameras.inOther);
    expect(redirected.status).toBe(400);
    expect(redirected.body.message).toMatch(/did not answer with a picture \(HTTP 302\)/);

    const bare = await call(server, 'POST', calls.add, {
      token,
      body: {
        cameraName: `bare ${suffix}`,
        zoneId: zones.other,
        streamType: 'flv',
        streamUrl: 'https://nvr.example.net/live/bare.flv',
      },
    });
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    const noDevice = await snapshot(String(bare.body.data.id));
    expect(noDevice.status).toBe(400);
    expect(noDevice.body.errors[0]).toMatchObject({ field: 'deviceId' });
  });
});
