import http from 'node:http';

export interface Answer {
  status: number;
  body: string;
}

/**
 * A small keep-alive HTTP client for load: one agent holding up to `connections` sockets, so
 * `connections` loops of closedLoop reuse their connections as a browser or proxy would.
 */
export function keepAliveClient(
  baseUrl: string,
  headers: Record<string, string>,
  connections: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const base = new URL(baseUrl);
  /** Any call; a body is sent as JSON (the console's POST and PUT calls). */
  const send = (method: string, path: string, body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const json = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(
        {
          host: base.hostname,
          port: base.port,
          path,
          method,
          agent,
          headers: json
            ? {
                ...headers,
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(json)),
              }
            : headers,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          response.on('error', reject);
        },
      );
      // Whether the request went out on a kept-alive connection (a reset there may be the
      // server closing it as idle at that very moment, which browsers retry).
      request.on('error', (error) =>
        reject(Object.assign(error, { reusedSocket: request.reusedSocket })),
      );
      request.end(json);
    });
  const get = (path: string) => send('GET', path);
  return { get, send, close: () => agent.destroy() };
}
