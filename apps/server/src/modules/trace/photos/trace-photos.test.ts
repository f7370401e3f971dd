import {
  DEVICE_FILE_MAX_BYTES,
  TRACE_PHOTO_CALLS,
  TRACE_PHOTOS_MAX,
  type TracePhoto,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/** A one-pixel PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(BACKENDS)('trace photos on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let acme: string;
  let operator: string;
  let baseId: string;
  let recordId: string;
  const test = it.skipIf(!available);

  const upload = (
    token: string,
    url: string,
    query: Record<string, string>,
    bytes: Uint8Array,
    lang = 'en',
  ) =>
    fetch(`${server.url}${url}?${new URLSearchParams(query)}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        cookie: `language=${lang}`,
      },
      body: bytes,
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as {
        data: TracePhoto;
        message: string;
        errors?: Array<{ field: string }>;
      },
    }));
  const list = (token: string, url: string, id: string) =>
    call<{ data: TracePhoto[] }>(server, 'GET', url, { token, query: { id } });

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ base: string; record: string }>(
        `SELECT (SELECT min(b.id)::text FROM trace_base b JOIN tenant t ON t.id = b.tenant_id
                  WHERE t.tenant_code = 'demo') AS base,
                (SELECT min(g.id)::text FROM trace_growth_record g JOIN tenant t ON t.id = g.tenant_id
                  WHERE t.tenant_code = 'demo') AS record`,
      ),
    );
    baseId = rows[0]!.base;
    recordId = rows[0]!.record;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('the demo has photos of its bases and growth records, served as their bytes', async () => {
    const photos = await list(admin, TRACE_PHOTO_CALLS.baseList, baseId);
    expect(photos.status).toBe(200);
    expect(photos.body.data.length).toBeGreaterThan(0);
    const { rows } = await server.db.system((sql) =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM trace_photo p JOIN tenant t ON t.id = p.tenant_id
          WHERE t.tenant_code = 'demo' AND p.growth_record_id IS NOT NULL`,
      ),
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    const bytes = await fetch(
      `${server.url}${TRACE_PHOTO_CALLS.download}?id=${photos.body.data[0]!.id}`,
      { headers: { authorization: `Bearer ${operator}` } },
    );
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-security-policy')).toContain('sandbox');
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  test('uploads, lists and deletes a growth record’s photo; another tenant never reaches it', async () => {
    const added = await upload(
      admin,
      TRACE_PHOTO_CALLS.growthUpload,
      {
        id: recordId,
        fileName: 'seedlings.png',
      },
      PNG,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const photo = added.body.data;
    expect(photo).toMatchObject({ fileName: 'seedlings.png', sizeKb: 1 });
    const listed = await list(admin, TRACE_PHOTO_CALLS.growthList, recordId);
    expect(listed.body.data.map((one) => one.id)).toContain(photo.id);

    // Another tenant: no such photo, no such record.
    const download = await fetch(`${server.url}${TRACE_PHOTO_CALLS.download}?id=${photo.id}`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(download.status).toBe(404);
    expect((await list(acme, TRACE_PHOTO_CALLS.growthList, recordId)).status).toBe(400);
    const foreign = await upload(
      acme,
      TRACE_PHOTO_CALLS.growthUpload,
      {
        id: recordId,
        fileName: 'x.png',
      },
      PNG,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0]?.field).toBe('id');
    const deleteForeign = await call(server, 'POST', TRACE_PHOTO_CALLS.delete, {
      token: acme,
      body: { id: photo.id },
    });
    expect(deleteForeign.status).toBe(400);
    // The operator sees photos but neither adds nor deletes them.
    expect((await list(operator, TRACE_PHOTO_CALLS.growthList, recordId)).status).toBe(200);
    expect(
      (
        await upload(
          operator,
          TRACE_PHOTO_CALLS.growthUpload,
          { id: recordId, fileName: 'o.png' },
          PNG,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(server, 'POST', TRACE_PHOTO_CALLS.delete, {
          token: operator,
          body: { id: photo.id },
        })
      ).status,
    ).toBe(403);

    const deleted = await call(server, 'POST', TRACE_PHOTO_CALLS.delete, {
      token: admin,
      body: { id: photo.id },
    });
    expect(deleted.status).toBe(200);
    expect(
      (await list(admin, TRACE_PHOTO_CALLS.growthList, recordId)).body.data.map((one) => one.id),
    ).not.toContain(photo.id);
    const gone = await fetch(`${server.url}${TRACE_PHOTO_CALLS.download}?id=${photo.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(gone.status).toBe(404);
  });

  test('refuses what is not an image, a type not accepted, too large a file and too many photos', async () => {
    const script = await upload(
      admin,
      TRACE_PHOTO_CALLS.baseUpload,
      {
        id: baseId,
        fileName: 'photo.png',
      },
      Buffer.from('<script>alert(1)</script>'.repeat(40)),
      'zh',
    );
    expect(script.status).toBe(400);
    expect(script.body.errors?.[0]?.field).toBe('file');
    expect(script.body.message).toMatch(/照片不是 JPEG、PNG/);
    const svg = await upload(
      admin,
      TRACE_PHOTO_CALLS.baseUpload,
      {
        id: baseId,
        fileName: 'photo.svg',
      },
      Buffer.from('<svg/>'),
    );
    expect(svg.status).toBe(400);
    expect(svg.body.errors?.[0]?.field).toBe('fileName');
    const big = await upload(
      admin,
      TRACE_PHOTO_CALLS.baseUpload,
      {
        id: baseId,
        fileName: 'big.png',
      },
      Buffer.concat([PNG, Buffer.alloc(DEVICE_FILE_MAX_BYTES)]),
    );
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/Photo is larger than 10 MB/);

    const before = (await list(admin, TRACE_PHOTO_CALLS.baseList, baseId)).body.data.length;
    for (let i = before; i < TRACE_PHOTOS_MAX; i += 1)
      expect(
        (
          await upload(
            admin,
            TRACE_PHOTO_CALLS.baseUpload,
            { id: baseId, fileName: `p${i}.png` },
            PNG,
          )
        ).status,
      ).toBe(200);
    const more = await upload(
      admin,
      TRACE_PHOTO_CALLS.baseUpload,
      {
        id: baseId,
        fileName: 'one-more.png',
      },
      PNG,
    );
    expect(more.status).toBe(400);
    expect(more.body.message).toMatch(/at most 20 photos/);
  });
});
