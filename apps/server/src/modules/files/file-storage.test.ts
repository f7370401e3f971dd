import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './file-storage';

async function text(stream: Readable | undefined): Promise<string | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('LocalDiskStorage', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-files-'));
    storage = new LocalDiskStorage(path.join(root, 'files'));
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('stores buffers and streams under generated keys, reads and removes them', async () => {
    const a = await storage.put(Buffer.from('canal level log'), { contentType: 'text/plain' });
    const b = await storage.put(Readable.from([Buffer.from('gate '), Buffer.from('manual')]), {
      contentType: 'application/pdf',
    });
    expect(a).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
    expect(await text(await storage.get(a))).toBe('canal level log');
    expect(await text(await storage.get(b))).toBe('gate manual');
    await storage.remove(a);
    expect(await storage.get(a)).toBeUndefined();
    await storage.remove(a);
    expect(await text(await storage.get(b))).toBe('gate manual');
  });

  it('never reaches outside its folder, whatever key it is given', async () => {
    const outside = path.join(root, 'secret.txt');
    await fs.writeFile(outside, 'secret');
    for (const key of ['../secret.txt', '/etc/passwd', 'ab/../../secret.txt', ''])
      expect(await storage.get(key)).toBeUndefined();
    await storage.remove('../secret.txt');
    expect(await fs.readFile(outside, 'utf8')).toBe('secret');
  });

  it('leaves no partial file behind when the source fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(storage.put(failing, { contentType: 'text/plain' })).rejects.toThrow(
      'connection reset',
    );
    const entries = await fs.readdir(path.join(root, 'files'), { recursive: true });
    const partial = entries.filter((entry) => String(entry).endsWith('.part'));
    expect(partial).toEqual([]);
  });
});
