import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalAddressRefused } from '../../../http/address-guard';
import type { JobProcessor, JobRunContext } from '../job-processor';

/** What the result keeps of the answer. */
const RESULT_CHARS = 500;
/** More of an answer than this is not read: the job wants its status, not a download. */
const READ_MAX_BYTES = 64 * 1024;

interface WebhookAnswer {
  status: number;
  text: string;
}

/**
 * Calls the address with the job's method and body under both the instance's signal (a stop,
 * the job's timeout) and the call's own time limit. Guarded like camera snapshots: a private,
 * loopback or link-local address is refused unless JOB_WEBHOOK_HOSTS names it, checked on the
 * address actually connected to; a redirect is never followed (its target would escape the
 * check) and, not being a 2xx, fails the call.
 */
function call(ctx: JobRunContext, url: URL, signal: AbortSignal): Promise<WebhookAnswer> {
  const allowed = ctx.config.jobWebhookHosts;
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password)
    return Promise.reject(
      new Error(`refused: ${url.protocol}//${url.host} is not a plain http(s) address`),
    );
  if (literalAddressRefused(url, allowed))
    return Promise.reject(new Error(`refused: ${url.hostname} is an internal address`));
  let refused = false;
  const lookup = guardedLookup(allowed, () => {
    refused = true;
  });
  const body =
    typeof ctx.params.body === 'string' && ctx.params.body.trim() !== ''
      ? ctx.params.body
      : undefined;
  const method = String(ctx.params.method ?? 'POST');
  const headers: Record<string, string> = {
    'idempotency-key': ctx.idempotencyKey,
    'user-agent': 'Shuili-Job/1',
  };
  if (body !== undefined && method !== 'GET') {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    const request = client.request(url, { method, headers, lookup, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size >= READ_MAX_BYTES) return;
        size += chunk.length;
        chunks.push(chunk);
        if (size >= READ_MAX_BYTES) response.destroy();
      });
      const done = () =>
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8').slice(0, RESULT_CHARS),
        });
      response.on('end', done);
      // Closed early: by the read limit (what was read is enough) or by the connection.
      response.on('close', () => {
        if (response.complete || size >= READ_MAX_BYTES) done();
        else reject(signal.reason ?? new Error('the connection closed before the answer ended'));
      });
      response.on('error', (error) => reject(error));
    });
    request.on('error', (error) =>
      reject(
        refused ? new Error(`refused: ${url.hostname} resolves to an internal address`) : error,
      ),
    );
    if (body !== undefined && method !== 'GET') request.end(body);
    else request.end();
  });
}

export const webhookProcessor: JobProcessor = {
  type: 'webhook',
  async run(ctx) {
    const url = new URL(String(ctx.params.url));
    const timeoutMs = Number(ctx.params.requestTimeoutMs);
    const method = String(ctx.params.method ?? 'POST');
    await ctx.log(`${method} ${url.origin}${url.pathname} (time limit ${timeoutMs} ms)`);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    let answer: WebhookAnswer;
    try {
      answer = await call(ctx, url, signal);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (signal.aborted) throw new Error(`no answer within ${timeoutMs} ms`);
      throw error;
    }
    await ctx.log(`HTTP ${answer.status}`, answer.status < 300 ? 'info' : 'warn');
    const result = `HTTP ${answer.status}${answer.text ? `: ${answer.text}` : ''}`;
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(
        answer.status >= 300 && answer.status < 400
          ? `${result} (redirects are not followed)`
          : result,
      );
    return { result, context: { webhookStatus: answer.status } };
  },
};
