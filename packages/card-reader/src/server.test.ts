import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT, encodePurse } from './card-layout';
import {
  CONSOLE_ORIGIN,
  RigClient,
  readCardFile,
  startRig,
  writeCardFile,
} from './card-reader-test-rig';
import type { CardData } from './protocol';

type Rig = Awaited<ReturnType<typeof startRig>>;

/** The status code a handshake got, or 101 when it was let in. */
function handshake(url: string, headers: Record<string, string>, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, ...(origin ? { origin } : {}) });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

const UID = '04A1B2C3';
const OTHER = '04D5E6F7';

describe('card-reading service (simulated reader, real WebSocket)', () => {
  let rig: Rig;
  let client: RigClient;
  beforeAll(async () => {
    rig = await startRig();
    client = await RigClient.open(rig.service.url);
  });
  afterAll(async () => {
    client?.close();
    await rig?.close();
  });

  it('says hello with the status: a reader, no card yet', async () => {
    expect(await client.event((event) => event.event === 'hello')).toMatchObject({
      version: 1,
      status: { backend: 'simulated', readerPresent: true, cardPresent: false, cardUid: null },
    });
    expect(await client.send({ type: 'read' })).toMatchObject({
      ok: false,
      error: { code: 'NO_CARD' },
    });
  });

  it('pushes card-placed and card-removed when the present file changes by hand', async () => {
    fs.writeFileSync(path.join(rig.folder, 'present'), `${OTHER.toLowerCase()}\n`);
    expect(
      await client.event((event) => event.event === 'card-placed' && event.uid === OTHER),
    ).toMatchObject({ status: { cardPresent: true, cardUid: OTHER } });
    // A UID without a file is a new blank card.
    expect(readCardFile(rig.folder, OTHER).blocks).toHaveLength(64);
    fs.rmSync(path.join(rig.folder, 'present'));
    expect(
      await client.event((event) => event.event === 'card-removed' && event.uid === OTHER),
    ).toMatchObject({ status: { cardPresent: false } });
  });

  it('issues a blank card placed by request, and reads it back', async () => {
    const placed = await client.send({ type: 'simulate.place', uid: UID.toLowerCase() });
    expect(placed).toMatchObject({ ok: true, result: { cardUid: UID } });
    await client.event((event) => event.event === 'card-placed' && event.uid === UID);
    expect(await client.send({ type: 'read' })).toMatchObject({
      ok: true,
      result: { uid: UID, issued: false },
    });
    const issue = {
      type: 'issue',
      uid: UID,
      tenantCode: 'demo',
      cardNo: UID,
      cardType: 'user',
      balanceFen: 0,
    };
    expect(await client.send(issue)).toMatchObject({ ok: true, result: { issued: true } });
    expect(await client.send(issue)).toMatchObject({
      ok: false,
      error: { code: 'ALREADY_ISSUED' },
    });
    const read = await client.send({ type: 'read' });
    expect(read).toEqual({
      id: expect.any(Number),
      ok: true,
      result: {
        uid: UID,
        issued: true,
        cardType: 'user',
        tenantCode: 'demo',
        cardNo: UID,
        balanceFen: 0,
        sequence: 0,
      },
    });
  });

  it('writes only over the expected sequence, verifies, and answers a repeated write as done', async () => {
    const write = { type: 'write', uid: UID, expectedSequence: 0, balanceFen: 100_00 };
    expect(await client.send(write)).toMatchObject({
      ok: true,
      result: { balanceFen: 100_00, sequence: 1, alreadyWritten: false },
    });
    // The answer was lost and the console sends the same write again: nothing is written twice.
    expect(await client.send(write)).toMatchObject({
      ok: true,
      result: { balanceFen: 100_00, sequence: 1, alreadyWritten: true },
    });
    // An offline controller deducts 12.34 yuan in between (its own write: sequence 2).
    const file = readCardFile(rig.folder, UID);
    file.blocks[LAYOUT.purse] = Buffer.from(encodePurse({ balanceFen: 87_66, sequence: 2 }))
      .toString('hex')
      .toUpperCase();
    writeCardFile(rig.folder, file);
    // The desk's next write still expects sequence 1: refused, the deduction stays.
    const stale = await client.send({
      type: 'write',
      uid: UID,
      expectedSequence: 1,
      balanceFen: 150_00,
    });
    expect(stale).toMatchObject({
      ok: false,
      error: { code: 'STALE_SEQUENCE', card: { balanceFen: 87_66, sequence: 2 } },
    });
    expect(await client.send({ type: 'read' })).toMatchObject({
      result: { balanceFen: 87_66, sequence: 2 },
    });
  });

  it('refuses a write meant for another card than the one on the reader', async () => {
    expect(
      await client.send({ type: 'write', uid: OTHER, expectedSequence: 2, balanceFen: 1 }),
    ).toMatchObject({ ok: false, error: { code: 'WRONG_CARD' } });
  });

  it('detects a corrupted block by its checksum and writes nothing over it', async () => {
    const file = readCardFile(rig.folder, UID);
    const purse = file.blocks[LAYOUT.purse]!;
    // One bit of the balance flips (a torn write, or someone editing the card).
    file.blocks[LAYOUT.purse] =
      `${(parseInt(purse[0]!, 16) ^ 1).toString(16).toUpperCase()}${purse.slice(1)}`;
    writeCardFile(rig.folder, file);
    expect(await client.send({ type: 'read' })).toMatchObject({
      ok: false,
      error: { code: 'CORRUPT_CARD', block: LAYOUT.purse },
    });
    const before = fs.readFileSync(path.join(rig.folder, `${UID}.json`), 'utf8');
    expect(
      await client.send({ type: 'write', uid: UID, expectedSequence: 2, balanceFen: 1 }),
    ).toMatchObject({ ok: false, error: { code: 'CORRUPT_CARD', block: LAYOUT.purse } });
    expect(fs.readFileSync(path.join(rig.folder, `${UID}.json`), 'utf8')).toBe(before);
    // Repaired (as a desk would re-issue it) for the tests below.
    file.blocks[LAYOUT.purse] = purse;
    writeCardFile(rig.folder, file);
  });

  it('erases a card with the same compare on the sequence', async () => {
    expect(await client.send({ type: 'erase', uid: UID, expectedSequence: 1 })).toMatchObject({
      ok: false,
      error: { code: 'STALE_SEQUENCE' },
    });
    const erased = await client.send({ type: 'erase', uid: UID, expectedSequence: 2 });
    expect(erased).toMatchObject({ ok: true, result: { issued: false } });
    expect((erased as { result: CardData }).result.balanceFen).toBe(0);
  });

  it('answers a bad request with BAD_REQUEST naming the field', async () => {
    expect(
      await client.send({ type: 'write', uid: UID, expectedSequence: -1, balanceFen: 1 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/^expectedSequence: /) },
    });
  });

  it('lets in only the configured consoles, and only under its own host name', async () => {
    const url = rig.service.url;
    const port = rig.service.port;
    const origin = CONSOLE_ORIGIN;
    expect(await handshake(url, {}, origin)).toBe(101);
    expect(await handshake(url, {}, 'https://evil.example')).toBe(403);
    expect(await handshake(url, {}, 'http://localhost:8081')).toBe(403);
    expect(await handshake(url, {}, 'null')).toBe(403);
    // No Origin at all (not a browser page): refused too.
    expect(await handshake(url, {})).toBe(403);
    // A page that rebinds its own name to 127.0.0.1 sends its own Host.
    expect(await handshake(url, { host: `evil.example:${port}` }, origin)).toBe(403);
    expect(await handshake(`ws://localhost:${port}`, {}, origin)).toBe(101);
  });

  it('drops a connection that sends an oversized frame, and keeps serving the others', async () => {
    const rude = await RigClient.open(rig.service.url);
    const closed = new Promise<void>((resolve) => rude.onClose(resolve));
    rude.sendRaw('x'.repeat(64 * 1024));
    await closed;
    expect(await client.send({ type: 'status' })).toMatchObject({ ok: true });
  });

  it('answers plain HTTP with 426', async () => {
    const reply = await fetch(`http://127.0.0.1:${rig.service.port}/`);
    expect(reply.status).toBe(426);
  });
});
