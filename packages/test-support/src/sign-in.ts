import {
  knowsSecondFactor,
  nextSecondFactorCode,
  rememberRecoveryCodes,
  rememberSecondFactor,
} from './test-server';

const BASIC = `Basic ${Buffer.from('browser:browser').toString('base64')}`;

interface TokenAnswer {
  access_token?: string;
  error?: string;
  mfa_ticket?: string;
  recovery_codes?: string[];
}

async function requestToken(url: string, params: Record<string, string>) {
  const query = new URLSearchParams({
    grant_type: 'password',
    type: 'account',
    scope: 'ui',
    client_id: 'browser',
    ...params,
  });
  const response = await fetch(`${url}/api/uaa/oauth/token?${query}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
  });
  return { status: response.status, body: (await response.json()) as TokenAnswer };
}

/**
 * A password sign-in as the console does it (client `browser`); answers the access token. An
 * account that must have a second factor (the platform's administrators) is enrolled at its
 * first sign-in and answers a fresh code after that.
 */
export async function signIn(
  url: string,
  tenantCode = 'demo',
  username = 'admin',
  password = 'admin123',
): Promise<string> {
  const params = { tenantCode, username, password };
  let answer = await requestToken(url, params);
  if (answer.status === 401 && answer.body.error === 'mfa_enrollment_required') {
    const enrolment = await fetch(`${url}/api/uaa/mfa/startEnrolment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: answer.body.mfa_ticket }),
    });
    const { data } = (await enrolment.json()) as { data: { secret: string } };
    rememberSecondFactor(url, tenantCode, username, data.secret);
  }
  if (answer.status === 401 && knowsSecondFactor(url, tenantCode, username)) {
    const totpCode = await nextSecondFactorCode(url, tenantCode, username);
    answer = await requestToken(url, { ...params, totpCode });
    rememberRecoveryCodes(url, tenantCode, username, answer.body.recovery_codes);
  }
  if (answer.status !== 200 || !answer.body.access_token)
    throw new Error(`sign-in failed: ${answer.status}`);
  return answer.body.access_token;
}
