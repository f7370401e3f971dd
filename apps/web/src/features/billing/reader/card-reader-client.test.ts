import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CardReaderClient,
  CardReaderRequestError,
  type CardReaderSnapshot,
  type SocketLike,
} from './card-reader-client';

/** The card-reading service's own command (its bin), as a service desk starts it. */
const BIN = fileURLToPath(
  new URL('../../../../../../packages/card-reader/bin/shuili-card-reader.mjs', import.meta.url),
);
const ORIGIN = 'http://localhost:8080';
const UID = '04C0FFEE';

/** What a browser page of the console at ORIGIN opens (the browser sets Origin; `ws` is told). */
const asConsole = (origin: string) => (url: string) =>
  new WebSocket(url, { origin }) as unknown as SocketLike;

/** Starts the service with a simulated reader on a free port; resolves with its port. */
function startService(cards: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [BIN, '--simulate', '--cards', cards, '--port', '0', '--origin', ORIGIN],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no port in: ${output}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

/** A port nothing listens on (yet). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function until(client: CardReaderClient, holds: (snapshot: CardReaderSnapshot) => boolean) {
  return new Promise<CardReaderSnapshot>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the state never came')), 10_000);
    const check = (snapshot: CardReaderSnapshot) => {
      if (!holds(snapshot)) return;
      clearTimeout(timer);
      stop();
      resolve(snapshot);
    };
    const stop = client.subscribe(check);
    check(client.snapshot());
  });
}

describe('card-reader client against the real service process', () => {
  let cards: string;
  let service: { child: ChildProcess; port: number };
  let client: CardReaderClient;
  const clients: CardReaderClient[] = [];
  const newClient = (port: number, origin = ORIGIN) => {
    const made = new CardReaderClient({
      url: `ws://127.0.0.1:${port}`,
      connect: asConsole(origin),
      requestTimeoutMs: 5000,
      backoffMs: { first: 100, max: 400 },
    });
    clients.push(made);
    made.start();
    return made;
  };

  beforeAll(async () => {
    cards = fs.mkdtempSync(path.join(os.tmpdir(), 'shuili-web-cards-'));
    service = await startService(cards);
    client = newClient(service.port);
    await client.waitOpen(10_000);
  }, 30_000);
  afterAll(() => {
    for (const made of clients) made.stop();
    service?.child.kill();
    fs.rmSync(cards, { recursive: true, force: true });
  });

  it('reads a card placed on the simulated reader, and writes it by compare-and-write', async () => {
    expect(client.snapshot()).toMatchObject({
      connection: 'open',
      status: { backend: 'simulated', cardPresent: false },
    });
    await client.request('simulate.place', { uid: UID });
    await until(client, (snapshot) => snapshot.status?.cardUid === UID);
    expect(await client.readCard()).toMatchObject({ uid: UID, issued: false });
    await client.issueCard({ uid: UID, tenantCode: 'demo', cardNo: UID, cardType: 'user' });
    const written = await client.writeCard({ uid: UID, expectedSequence: 0, balanceFen: 5000 });
    expect(written).toMatchObject({ balanceFen: 5000, sequence: 1, alreadyWritten: false });
    // A retry of the same write (its answer lost) is answered as done, not written twice.
    expect(
      await client.writeCard({ uid: UID, expectedSequence: 0, balanceFen: 5000 }),
    ).toMatchObject({ sequence: 1, alreadyWritten: true });
    expect(await client.readCard()).toMatchObject({
      uid: UID,
      issued: true,
      cardType: 'user',
      tenantCode: 'demo',
      cardNo: UID,
      balanceFen: 5000,
      sequence: 1,
    });
  });

  it('throws a stale write at once, with what the card holds, without retrying', async () => {
    const started = Date.now();
    const error = await client
      .writeCard({ uid: UID, expectedSequence: 0, balanceFen: 9000 }, { delayMs: 2000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CardReaderRequestError);
    expect(error).toMatchObject({
      code: 'STALE_SEQUENCE',
      card: { balanceFen: 5000, sequence: 1 },
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries a write while the card is off the reader, and writes once it is back', async () => {
    await client.request('simulate.remove', {});
    await until(client, (snapshot) => snapshot.status?.cardPresent === false);
    const writing = client.writeCard(
      { uid: UID, expectedSequence: 1, balanceFen: 4000 },
      { attempts: 10, delayMs: 200 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeFileSync(path.join(cards, 'present'), UID);
    expect(await writing).toMatchObject({ balanceFen: 4000, sequence: 2 });
  });

  it('gives up after its attempts and names the reason', async () => {
    await client.request('simulate.remove', {});
    await expect(
      client.writeCard(
        { uid: UID, expectedSequence: 2, balanceFen: 1 },
        { attempts: 2, delayMs: 50 },
      ),
    ).rejects.toMatchObject({ code: 'NO_CARD' });
  });

  it('is not let in from a page of another origin', async () => {
    const stranger = newClient(service.port, 'https://evil.example');
    const snapshot = await until(stranger, (state) => state.failures >= 2);
    expect(snapshot).toMatchObject({ connection: 'closed', status: null });
    await expect(stranger.readCard()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('says when no service runs, and connects by itself once one does', async () => {
    // A port where nothing listens yet: the service is started after the page.
    const port = await freePort();
    const early = newClient(port);
    await until(early, (snapshot) => snapshot.connection === 'closed' && snapshot.failures >= 1);
    const second = fs.mkdtempSync(path.join(os.tmpdir(), 'shuili-web-cards-'));
    const child = spawn(
      process.execPath,
      [BIN, '--simulate', '--cards', second, '--port', String(port), '--origin', ORIGIN],
      { stdio: 'ignore' },
    );
    try {
      await until(early, (snapshot) => snapshot.connection === 'open');
      // The service stops: requests in flight and later fail as not connected, and it retries.
      child.kill();
      await until(early, (snapshot) => snapshot.connection === 'closed');
      await expect(early.status()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    } finally {
      child.kill();
      fs.rmSync(second, { recursive: true, force: true });
    }
  }, 30_000);
});
