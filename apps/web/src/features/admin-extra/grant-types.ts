/** OAuth grant types a session may have started with; others are shown as the server names them. */
export const GRANT_TYPES = [
  'password',
  'mobile',
  'refresh_token',
  'authorization_code',
  'client_credentials',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export function isKnownGrantType(value: string): value is GrantType {
  return (GRANT_TYPES as readonly string[]).includes(value);
}
