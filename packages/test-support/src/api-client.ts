import { BROWSER_CLIENT_ID, type TokenResponse } from '@shuili/contract';
import { hashPassword } from '@shuili/server/modules/uaa/password-hasher';
import {
  knowsSecondFactor,
  nextSecondFactorCode,
  rememberRecoveryCodes,
  rememberSecondFactor,
} from './second-factor';
import type { TestServer } from './test-server';

export const BROWSER_BASIC = `Basic ${Buffer.from(`${BROWSER_CLIENT_ID}:browser`).toString('base64')}`;

export interface CallOptions {
  token?: string;
  ip?: string;
  lang?: string;
  headers?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string | undefined>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the test server over real HTTP as a browser would (JSON bodies, bearer token). */
export async function call<T = any>(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(path, server.url);
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined) url.searchParams.set(key, value);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  if (options.lang) headers.cookie = `language=${options.lang}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Posts to the token endpoint the spec's way: query parameters, form type, Basic client. */
export function requestToken(
  server: Pick<TestServer, 'url'>,
  params: Record<string, string | undefined>,
  options: { ip?: string; lang?: string; authorization?: string | null; cookie?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.authorization !== null)
    headers.authorization = options.authorization ?? BROWSER_BASIC;
  if (options.cookie) headers.cookie = options.cookie;
  return call<
    TokenResponse & {
      error?: string;
      error_description?: string;
      errors?: { field: string; message: string }[];
    }
  >(server, 'POST', '/api/uaa/oauth/token', {
    query: { scope: 'ui', client_id: BROWSER_CLIENT_ID, ...params },
    headers,
    ip: options.ip,
    lang: options.lang,
  });
}

let ipCounter = 0;
/** A fresh client address per caller, so per-address limits of one test do not touch another. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/**
 * Signs in with the password grant and answers the token response (throws on failure). An
 * account that must have a second factor (the platform tenant's administrators) is enrolled at
 * its first sign-in and answers a code after that, as a person with an authenticator would.
 */
export async function signIn(
  server: Pick<TestServer, 'url'>,
  tenantCode: string,
  username: string,
  password: string,
): Promise<TokenResponse> {
  const params = { grant_type: 'password', type: 'account', tenantCode, username, password };
  let result = await requestToken(server, params, { ip: freshIp() });
  if (result.status === 401 && result.body.error === 'mfa_enrollment_required') {
    const enrolment = await call<{ data: { secret: string } }>(
      server,
      'POST',
      '/api/uaa/mfa/startEnrolment',
      { body: { ticket: (result.body as { mfa_ticket?: string }).mfa_ticket }, ip: freshIp() },
    );
    if (enrolment.status !== 200)
      throw new Error(`enrolment of ${tenantCode}/${username} failed: ${enrolment.status}`);
    rememberSecondFactor(server.url, tenantCode, username, enrolment.body.data.secret);
  }
  if (
    result.status === 401 &&
    (result.body.error === 'mfa_enrollment_required' || result.body.error === 'mfa_required') &&
    knowsSecondFactor(server.url, tenantCode, username)
  ) {
    const totpCode = await nextSecondFactorCode(server.url, tenantCode, username);
    result = await requestToken(server, { ...params, totpCode }, { ip: freshIp() });
    rememberRecoveryCodes(server.url, tenantCode, username, result.body.recovery_codes);
  }
  if (result.status !== 200)
    throw new Error(
      `sign-in of ${tenantCode}/${username} failed: ${result.status} ${JSON.stringify(result.body)}`,
    );
  return result.body;
}

/** The newest message the development provider "sent" to a recipient. */
export async function lastOutboxMessage(
  server: Pick<TestServer, 'db'>,
  recipient: string,
): Promise<string | undefined> {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ body: string }>(
      'SELECT body FROM outbox_message WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
      [recipient],
    ),
  );
  return rows[0]?.body;
}

/** The six-digit code inside the newest message to a recipient. */
export async function lastCode(server: Pick<TestServer, 'db'>, recipient: string): Promise<string> {
  const body = await lastOutboxMessage(server, recipient);
  const code = body?.match(/\b\d{6}\b/)?.[0];
  if (!code) throw new Error(`no code was sent to ${recipient}`);
  return code;
}

/** Puts a user with this password straight into a tenant, for tests that lock or change accounts. */
export async function addUser(
  server: Pick<TestServer, 'db'>,
  tenantCode: string,
  username: string,
  secret: string,
): Promise<void> {
  const hash = await hashPassword(secret);
  await server.db.system((sql) =>
    sql.query(
      `INSERT INTO sys_user (tenant_id, username, nickname, password_hash)
       SELECT id, $2, $2, $3 FROM tenant WHERE tenant_code = $1`,
      [tenantCode, username, hash],
    ),
  );
}

/** The id of a tenant's user by username, or of its first user when no username is given. */
export async function userIdOf(
  server: Pick<TestServer, 'db'>,
  tenantCode: string,
  username?: string,
): Promise<string> {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ id: string }>(
      `SELECT u.id::text FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
        WHERE t.tenant_code = $1 AND ($2::text IS NULL OR u.username = $2)
        ORDER BY u.id LIMIT 1`,
      [tenantCode, username ?? null],
    ),
  );
  if (!rows[0]) throw new Error(`no user ${username ?? ''} in ${tenantCode}`);
  return rows[0].id;
}
