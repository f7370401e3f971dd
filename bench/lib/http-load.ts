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
  const get = (path: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        { host: base.hostname, port: base.port, path, method: 'GET', agent, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  return { get, close: () => agent.destroy() };
}
