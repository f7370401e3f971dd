import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  DEVICE_FILE_CALLS,
  DEVICE_FILE_MAX_BYTES,
  entityCalls,
  iotDeviceEntity,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { filesStoredFromNow } from '@shuili/test-support/stored-files';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { sanitizeFileName } from './upload-policy';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const MB = 1024 * 1024;

describe('file names', () => {
  it.each([
    ['../../etc/passwd.txt', 'passwd.txt'],
    ['C:\\Users\\me\\现场照片.png', '现场照片.png'],
    ['report\u0000.pdf', 'report.pdf'],
    ['line\r\nbreak.txt', 'linebreak.txt'],
    // Right-to-left override: would read as "photoexe.png" in a list.
    ['photo\u202Egnp.exe', 'photognp.exe'],
    ['.htaccess.txt', 'htaccess.txt'],
    ['name. . .', 'name'],
    ['a<b>:"c|?*.csv', 'a_b___c___.csv'],
  ])('%j is listed as %j', (raw, clean) => {
    expect(sanitizeFileName(raw)).toBe(clean);
  });

  it('keeps the extension of a name cut to length, and refuses a name with nothing left', () => {
    const long = sanitizeFileName(`${'渠'.repeat(300)}.pdf`)!;
    expect([...long].length).toBe(120);
    expect(long.endsWith('.pdf')).toBe(true);
    for (const empty of ['', '../', '...', '\u0000\u202e', ' / '])
      expect(sanitizeFileName(empty)).toBeUndefined();
  });
});

describe('device file uploads and downloads', () => {
  let server: TestServer;
  let dataDir: string;
  /** The files uploads stored (the demo seed's own left out). */
  let storedFiles: () => Promise<string[]>;
  let token: string;
  let deviceId: string;
  /** The last id the demo seed gave a device file. */
  let seededUpTo: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-uploads-'));
    server = await startTestServer({ config: { dataDir } });
    storedFiles = await filesStoredFromNow(dataDir);
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM iot_device_file'),
    );
    seededUpTo = rows[0]!.id;
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const devices = await call(server, 'GET', entityCalls(iotDeviceEntity).query, { token });
    deviceId = String(devices.body.data.list[0].id);
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /**
   * Rows uploads wrote: those after the demo seed's (by id, not by time: the seed's insect traps
   * photograph the night, so at midnight in the district a seeded photo is minutes old).
   */
  async function rowCount(): Promise<number> {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ n: number }>('SELECT count(*)::int AS n FROM iot_device_file WHERE id > $1', [
        seededUpTo,
      ]),
    );
    return rows[0]!.n;
  }

  function uploadUrl(fileName: string, fileKind = 'file'): URL {
    const url = new URL(DEVICE_FILE_CALLS.upload, server.url);
    url.search = new URLSearchParams({ deviceId, fileName, fileKind }).toString();
    return url;
  }

  async function upload(fileName: string, body: Buffer, fileKind = 'file') {
    const response = await fetch(uploadUrl(fileName, fileKind), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        cookie: 'language=zh',
      },
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  function download(id: string) {
    const url = new URL(DEVICE_FILE_CALLS.download, server.url);
    url.searchParams.set('id', id);
    return fetch(url, { headers: { authorization: `Bearer ${token}` } });
  }

  /**
   * Streams an endless upload (chunked, no length) until the server answers, as a client that
   * reads the answer while still sending does; at 200 MB it gives up, so a server that buffers
   * everything fails the test instead of hanging it.
   */
  async function sendUntilAnswered(url: URL) {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        cookie: 'language=zh',
      },
    });
    // The answer comes before the body ends, so the kept-alive socket goes back to the agent when
    // the body does, and Node leaves it a moment without an 'error' listener: the reset of the
    // refused rest of the body (the server cuts it) then became an uncaught error in CI. The
    // request still gets every error the socket has while they are attached.
    request.on('socket', (socket) => socket.on('error', () => {}));
    let sent = 0;
    let answered = false;
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      request.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      });
      request.on('error', reject);
    });
    const chunk = Buffer.alloc(256 * 1024, 'a');
    while (!answered && !request.destroyed && sent < 200 * MB) {
      sent += chunk.length;
      // The server runs in this process: yield after every chunk so it gets to read and answer.
      if (request.write(chunk)) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.race([once(request, 'drain'), answer]);
    }
    request.end();
    return { result: await answer, sent };
  }

  it('stops an oversize upload while it streams, without reading it all, and keeps nothing', async () => {
    // An endless body with no length: only a check on the stream itself can stop it.
    const { result, sent } = await sendUntilAnswered(uploadUrl('endless.txt'));
    expect(result.status).toBe(400);
    expect(result.body.errors[0].field).toBe('file');
    expect(result.body.errors[0].message).toMatch(/超过 10 MB/);
    // Refused soon after the limit, far before the 200 MB the client was ready to send. What the
    // client wrote past the limit is what loopback buffers took while the answer was on its way
    // (this process both sends and serves, so a loaded machine makes that last longer): a server
    // that read the body through would have taken all 200 MB first.
    expect(sent).toBeLessThan(50 * MB);
    expect(await storedFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
  });

  it('accepts exactly 10 MB and refuses a declared length above it before reading', async () => {
    const exact = await upload('exact.txt', Buffer.alloc(DEVICE_FILE_MAX_BYTES, 'a'));
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body.data.contentType).toBe('text/plain');
    const over = await upload('over.txt', Buffer.alloc(DEVICE_FILE_MAX_BYTES + 1, 'a'));
    expect(over.status).toBe(400);
    expect(over.body.errors[0].field).toBe('file');
    expect(over.body.errors[0].message).toMatch(/超过 10 MB/);
    expect((await storedFiles()).length).toBe(1);
    await call(server, 'POST', DEVICE_FILE_CALLS.remove, {
      token,
      query: { id: exact.body.data.id },
    });
    expect(await storedFiles()).toEqual([]);
  });

  it.each([
    [
      'script named .png',
      'photo.png',
      'image',
      Buffer.from('<script>alert(1)</script>'),
      /不是 JPEG、PNG、GIF、BMP 或 WebP 图片/,
    ],
    [
      'GIF named .jpg',
      'photo.jpg',
      'image',
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      /不是 JPEG、PNG、GIF、BMP 或 WebP 图片/,
    ],
    [
      'HTML named .pdf',
      'manual.pdf',
      'file',
      Buffer.from('<html><script>alert(1)</script>'),
      /的内容与文件名不符/,
    ],
    [
      'executable named .docx',
      'plan.docx',
      'file',
      Buffer.from('MZ\x90\x00\x03'),
      /的内容与文件名不符/,
    ],
    [
      'binary named .txt',
      'log.txt',
      'file',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]),
      /的内容与文件名不符/,
    ],
    ['zip named .xls', 'sheet.xls', 'file', Buffer.from('PK\x03\x04rest'), /的内容与文件名不符/],
  ])('refuses a %s (type by content)', async (_name, fileName, kind, bytes, key) => {
    const result = await upload(fileName, bytes, kind);
    expect(result.status).toBe(400);
    expect(result.body.errors[0].field).toBe('file');
    expect(result.body.errors[0].message).toMatch(key);
    expect(await storedFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
  });

  it.each([
    ['page.html', 'file'],
    ['drawing.svg', 'image'],
    ['drawing.svg', 'file'],
    ['tool.exe', 'file'],
    ['no-extension', 'file'],
    ['manual.pdf', 'image'],
  ])('refuses the name %j as a %s (type by name)', async (fileName, kind) => {
    const result = await upload(fileName, Buffer.from('%PDF-1.7 whatever'), kind);
    expect(result.status).toBe(400);
    expect(result.body.errors[0].field).toBe('fileName');
    expect(result.body.errors[0].message).toMatch(/不接受此类型的文件/);
    expect(await storedFiles()).toEqual([]);
  });

  it('stores under a generated path and lists only the cleaned name', async () => {
    const uploaded = await upload('../../etc/\u202Ecron\u0007.png', PNG, 'image');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const stored = await storedFiles();
    expect(stored).toEqual([expect.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{32}$/)]);
    const { rows } = await server.db.system((sql) =>
      sql.query<{ original_name: string; storage_key: string }>(
        'SELECT original_name, storage_key FROM iot_device_file WHERE id = $1',
        [uploaded.body.data.id],
      ),
    );
    expect(rows[0]).toEqual({ original_name: 'cron.png', storage_key: stored[0] });
    await call(server, 'POST', DEVICE_FILE_CALLS.remove, {
      token,
      query: { id: uploaded.body.data.id },
    });
  });

  it('sends every download as an attachment that cannot be sniffed, rendered or run', async () => {
    const name = '灌溉 "plan"; 100% v2.pdf';
    const uploaded = await upload(name, Buffer.from('%PDF-1.7\n...'));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const image = await upload('gate.png', PNG, 'image');
    expect(image.status).toBe(200);
    for (const [id, type, fileName] of [
      [uploaded.body.data.id, 'application/pdf', sanitizeFileName(name)!],
      [image.body.data.id, 'image/png', 'gate.png'],
    ]) {
      const response = await download(id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      const disposition = response.headers.get('content-disposition')!;
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(fileName)}`);
      // The quoted fallback cannot be broken out of.
      expect(disposition.match(/filename="([^"]*)"/)![1]).not.toMatch(/["\\;%]/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'; sandbox",
      );
      await response.arrayBuffer();
    }

    // Even a row stored as HTML (by an older version, by hand) never comes back as HTML.
    await server.db.system((sql) =>
      sql.query("UPDATE iot_device_file SET content_type = 'text/html' WHERE id = $1", [
        uploaded.body.data.id,
      ]),
    );
    const html = await download(uploaded.body.data.id);
    expect(html.headers.get('content-type')).toBe('application/octet-stream');
    await html.arrayBuffer();
  });
});
