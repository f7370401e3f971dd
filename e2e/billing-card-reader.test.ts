import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type ConsoleRig } from '@shuili/test-support/console';
import { freePort } from '@shuili/test-support/server-process';
import { startCardReader } from './card-reader-desk';

let rig: ConsoleRig;
let service: ChildProcess;
let cards: string;
let readerPort: number;

beforeAll(async () => {
  cards = fs.mkdtempSync(path.join(os.tmpdir(), 'shuili-e2e-cards-'));
  readerPort = await freePort();
  rig = await startConsole({ config: { cardReaderPort: readerPort } });
  service = await startCardReader(cards, readerPort, rig.server.url);
}, 120_000);

afterAll(async () => {
  service?.kill();
  await rig?.close();
  fs.rmSync(cards, { recursive: true, force: true });
});

/** What a WebSocket from the page to `url` does: the service's first message, or how it ended. */
function connectFromPage(page: Page, url: string) {
  return page.evaluate(
    (target) =>
      new Promise<{ hello?: unknown; closed?: number; violation?: string }>((resolve) => {
        const onViolation = (event: SecurityPolicyViolationEvent) =>
          resolve({ violation: event.violatedDirective });
        document.addEventListener('securitypolicyviolation', onViolation, { once: true });
        let socket: WebSocket;
        try {
          socket = new WebSocket(target);
        } catch {
          return resolve({ violation: 'constructor' });
        }
        socket.onmessage = (message) => {
          resolve({ hello: JSON.parse(message.data as string) });
          socket.close();
        };
        socket.onclose = (event) => resolve({ closed: event.code });
      }),
    url,
  );
}

describe('the console and the desk card-reading service in a real browser', () => {
  it("connects from the console's page: its CSP allows the port, the service its Origin", async () => {
    const { page } = await rig.newPage();
    await page.goto('/login');
    const settings = await page.evaluate(() =>
      fetch('/api/system/queryConsoleSettings').then((reply) => reply.json()),
    );
    expect(settings.data.cardReaderPort).toBe(readerPort);
    expect(await connectFromPage(page, `ws://127.0.0.1:${readerPort}`)).toMatchObject({
      hello: { event: 'hello', status: { backend: 'simulated', readerPresent: true } },
    });
    expect(await connectFromPage(page, `ws://localhost:${readerPort}`)).toMatchObject({
      hello: { event: 'hello' },
    });
  });

  it('keeps every other port of the loopback out of reach of the console', async () => {
    const { page } = await rig.newPage();
    await page.goto('/login');
    const other = await freePort();
    expect(await connectFromPage(page, `ws://127.0.0.1:${other}`)).toMatchObject({
      violation: 'connect-src',
    });
  });

  it('refuses a page of another origin, even one the browser sends from the same server', async () => {
    // http://localhost:<port> is the same server under another name: another origin, not named.
    const { page } = await rig.newPage();
    const elsewhere = rig.server.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${elsewhere}/login`);
    const answer = await connectFromPage(page, `ws://127.0.0.1:${readerPort}`);
    expect(answer.hello).toBeUndefined();
    expect(answer.closed).toBe(1006);
  });
});
