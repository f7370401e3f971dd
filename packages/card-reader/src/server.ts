import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ReaderBackend } from './backends/backend';
import { CardOperations } from './card-operations';
import { CardReaderFailure } from './errors';
import { originPolicy, refusal } from './origin-policy';
import {
  PROTOCOL_VERSION,
  cardReaderRequestSchema,
  type CardReaderEvent,
  type CardReaderResponse,
  type ReaderStatus,
} from './protocol';

/** Only loopback: the service is for the browser on this machine, never for the network. */
export const LISTEN_HOST = '127.0.0.1';

export interface CardReaderServiceOptions {
  /** 0: any free port (tests). */
  port: number;
  /** Origins of the consoles that may connect (origin-policy.ts). */
  origins: readonly string[];
  backend: ReaderBackend;
  log?: (line: string) => void;
}

export interface CardReaderService {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Frames are small JSON; anything larger is not the console talking. */
const MAX_FRAME_BYTES = 16 * 1024;

/**
 * Starts the card-reading service: a WebSocket server on 127.0.0.1 that answers the protocol's
 * requests (protocol.ts) with the backend's card and pushes the reader's and card's changes to
 * every connected console.
 */
export async function startCardReaderService(
  options: CardReaderServiceOptions,
): Promise<CardReaderService> {
  const log = options.log ?? (() => {});
  const policy = originPolicy(options.origins);
  const backend = options.backend;
  const operations = new CardOperations(backend);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  const server = http.createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    response.end('The Shuili card-reading service speaks WebSocket only.\n');
  });

  let previous: ReaderStatus = backend.status();
  const broadcast = (event: CardReaderEvent) => {
    const text = JSON.stringify(event);
    for (const socket of sockets.clients) if (socket.readyState === socket.OPEN) socket.send(text);
  };
  // The backend says something changed: tell every console what, as one event.
  const changed = () => {
    const status = backend.status();
    const before = previous;
    previous = status;
    if (before.cardUid && before.cardUid !== status.cardUid) {
      log(`card ${before.cardUid} removed`);
      broadcast({ event: 'card-removed', uid: before.cardUid, status });
    }
    if (status.cardUid && status.cardUid !== before.cardUid) {
      log(`card ${status.cardUid} placed`);
      broadcast({ event: 'card-placed', uid: status.cardUid, status });
    }
    if (
      before.readerPresent !== status.readerPresent ||
      before.readerName !== status.readerName ||
      before.problem !== status.problem
    ) {
      log(`reader: ${status.readerPresent ? status.readerName : (status.problem ?? 'absent')}`);
      broadcast({ event: 'reader', status });
    }
  };
  await backend.start(changed);
  previous = backend.status();

  server.on('upgrade', (request, socket, head) => {
    const address = server.address() as AddressInfo;
    const why = refusal(policy, request.headers, address.port);
    if (why) {
      log(`refused a connection: ${why}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client));
  });

  sockets.on('connection', (client: WebSocket) => {
    const hello: CardReaderEvent = {
      event: 'hello',
      version: PROTOCOL_VERSION,
      status: backend.status(),
    };
    client.send(JSON.stringify(hello));
    // A bad frame (too large, not UTF-8) ends that connection; never the service.
    client.on('error', (error) => log(`a connection failed: ${error.message}`));
    client.on('message', (data, isBinary) => {
      void answer(isBinary ? null : data.toString()).then((response) => {
        if (client.readyState === client.OPEN) client.send(JSON.stringify(response));
      });
    });
  });

  async function answer(text: string | null): Promise<CardReaderResponse> {
    let body: unknown;
    try {
      body = text === null ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const rawId = (body as { id?: unknown } | undefined)?.id;
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    const parsed = cardReaderRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'request';
      return {
        id,
        ok: false,
        error: { code: 'BAD_REQUEST', message: `${field}: ${issue?.message ?? 'invalid'}` },
      };
    }
    const request = parsed.data;
    try {
      const result = await perform(request);
      return { id: request.id, ok: true, result };
    } catch (error) {
      if (error instanceof CardReaderFailure) {
        log(`${request.type} refused: ${error.code} ${error.message}`);
        return { id: request.id, ok: false, error: error.toError() };
      }
      log(`${request.type} failed: ${String(error)}`);
      return {
        id: request.id,
        ok: false,
        error: { code: 'READER_ERROR', message: error instanceof Error ? error.message : 'error' },
      };
    }
  }

  async function perform(request: ReturnType<typeof cardReaderRequestSchema.parse>) {
    switch (request.type) {
      case 'status':
        return backend.status();
      case 'read':
        return operations.read();
      case 'write':
        return operations.write(request);
      case 'issue':
        return operations.issue(request);
      case 'erase':
        return operations.erase(request);
      case 'simulate.place':
      case 'simulate.remove': {
        if (!backend.simulate)
          throw new CardReaderFailure('NOT_SIMULATED', 'this service drives a real reader');
        if (request.type === 'simulate.place') await backend.simulate.place(request.uid);
        else await backend.simulate.remove();
        return backend.status();
      }
    }
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, LISTEN_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await backend.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `ws://${LISTEN_HOST}:${port}`,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}
