import type { FastifyRequest } from 'fastify';

/**
 * Parameters that carry secrets, matched without regard to letter case. The spec's token call
 * sends the password (and the second factor's code, which may be a recovery code) in the query
 * string, and any call may be sent so, so every request line the server logs passes through here
 * first.
 */
const SECRET_PARAMS = new Set(
  [
    'password',
    'newPassword',
    'oldPassword',
    'currentPassword',
    'adminPassword',
    'smsCaptcha',
    'charCaptcha',
    'totpCode',
    'code',
    'recoveryCode',
    'ticket',
    'mfa_ticket',
    'refresh_token',
    'access_token',
    'client_secret',
    'clientSecret',
    'secret',
    // A password-reset link's token (the link's page, /forgotpassword?resetToken=, and its calls).
    'resetToken',
    'token',
  ].map((name) => name.toLowerCase()),
);

export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let changed = false;
  for (const name of new Set(params.keys())) {
    if (SECRET_PARAMS.has(name.toLowerCase())) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

/** Fastify's request log line, with secrets taken out of the URL. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
