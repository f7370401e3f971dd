import { call, type CallResult } from './api-client';
import type { TestServer } from './test-server';

/**
 * A client that speaks exactly as spec §7 writes its calls: "params" are query parameters (GET)
 * or an application/x-www-form-urlencoded body (POST/PUT), "data" is a JSON body. The contract
 * test uses it so that a call the spec describes is sent in the spec's own words, never in the
 * console's richer forms.
 */
export type Style =
  | { params: Record<string, string | undefined> }
  | { data: unknown }
  | { query: Record<string, string | undefined> }
  | Record<string, never>;

export interface SpecClient {
  send(
    method: string,
    path: string,
    style?: Style,
    headers?: Record<string, string>,
  ): Promise<CallResult>;
  /** The call answered 200 with code 200: its data. */
  data(method: string, path: string, style?: Style): Promise<any>;
}

function formOf(params: Record<string, string | undefined>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) form.set(key, value);
  return form.toString();
}

export function specClient(server: Pick<TestServer, 'url'>, token?: string): SpecClient {
  const client: SpecClient = {
    async send(method, path, style = {}, headers = {}) {
      if ('data' in style) return call(server, method, path, { token, body: style.data, headers });
      if ('query' in style)
        return call(server, method, path, { token, query: style.query, headers });
      if ('params' in style) {
        if (method === 'GET')
          return call(server, method, path, { token, query: style.params, headers });
        return call(server, method, path, {
          token,
          body: formOf(style.params),
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        });
      }
      return call(server, method, path, { token, headers });
    },
    async data(method, path, style) {
      const answer = await client.send(method, path, style);
      if (answer.status !== 200 || answer.body?.code !== 200)
        throw new Error(
          `${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`,
        );
      return answer.body.data;
    },
  };
  return client;
}
