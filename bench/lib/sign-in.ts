const BASIC = `Basic ${Buffer.from('browser:browser').toString('base64')}`;

/** A password sign-in as the console does it (client `browser`); answers the access token. */
export async function signIn(
  url: string,
  tenantCode = 'demo',
  username = 'admin',
  password = 'admin123',
): Promise<string> {
  const query = new URLSearchParams({
    grant_type: 'password',
    type: 'account',
    scope: 'ui',
    client_id: 'browser',
    tenantCode,
    username,
    password,
  });
  const response = await fetch(`${url}/api/uaa/oauth/token?${query}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`sign-in failed: ${response.status}`);
  return body.access_token;
}
