import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { SimulatedReader, type CardFile } from './backends/simulated';
import type { CardReaderEvent, CardReaderResponse } from './protocol';
import { startCardReaderService, type CardReaderService } from './server';

export const CONSOLE_ORIGIN = 'http://localhost:8080';

/** A service on a free port with a simulated reader over a fresh temporary folder. */
export async function startRig(): Promise<{
  service: CardReaderService;
  folder: string;
  close(): Promise<void>;
}> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shuili-cards-'));
  const service = await startCardReaderService({
    port: 0,
    origins: [CONSOLE_ORIGIN],
    backend: new SimulatedReader(folder),
  });
  return {
    service,
    folder,
    close: async () => {
      await service.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A console's connection, as a browser page would open it (its Origin header). */
export class RigClient {
  readonly events: CardReaderEvent[] = [];
  private readonly waiting = new Map<string | number, (response: CardReaderResponse) => void>();
  private nextId = 1;
  private eventWaiters: Array<() => void> = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as CardReaderEvent | CardReaderResponse;
      if ('event' in message) {
        this.events.push(message);
        for (const wake of this.eventWaiters.splice(0)) wake();
      } else if (message.id !== null) {
        this.waiting.get(message.id)?.(message);
      }
    });
  }

  static async open(url: string, origin = CONSOLE_ORIGIN): Promise<RigClient> {
    const socket = new WebSocket(url, { origin });
    const client = new RigClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(body: Record<string, unknown>): Promise<CardReaderResponse> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ id, ...body }));
    });
  }

  /** The first event (from the start of the connection) that matches. */
  async event(matches: (event: CardReaderEvent) => boolean, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(matches);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('no such event came');
      await new Promise<void>((resolve) => {
        this.eventWaiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Sends a frame as it is (not a request). */
  sendRaw(text: string): void {
    this.socket.send(text);
  }

  onClose(listener: () => void): void {
    this.socket.on('close', listener);
  }

  close(): void {
    this.socket.close();
  }
}

export function readCardFile(folder: string, uid: string): CardFile {
  return JSON.parse(fs.readFileSync(path.join(folder, `${uid}.json`), 'utf8')) as CardFile;
}

export function writeCardFile(folder: string, file: CardFile): void {
  fs.writeFileSync(path.join(folder, `${file.uid}.json`), JSON.stringify(file));
}
