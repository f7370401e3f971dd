import { normalizeMobile } from '@shuili/contract';
import type { Sql } from '../../db/database';
import type { CaptchaChannel } from '../account/captcha.service';
import { identityRepo, type LoginUserRow, type TenantRow } from './identity.repo';

/** The account a sign-in names, found or not, and the name its counters and codes go by. */
export interface SignInAccount {
  tenant: TenantRow | undefined;
  user: LoginUserRow | undefined;
  /**
   * One account, one name, however it is spelled (username, e-mail, mobile with spaces); an
   * account that does not exist is named by what was typed, so it is counted like a real one.
   */
  key: string;
}

/** No tenant has this id: an unknown tenant's user look-up finds nobody, in the usual time. */
const NO_TENANT = '0';

/** Finds the account of a tenant code and a username, e-mail or mobile (system transaction). */
export async function findSignInAccount(
  sql: Sql,
  tenantCode: string,
  identifier: string,
): Promise<SignInAccount> {
  const tenant = await identityRepo.tenantByCode(sql, tenantCode);
  // Looked up even for an unknown tenant, so its answer does not come sooner.
  const user = await identityRepo.userByIdentifier(
    sql,
    tenant?.id ?? NO_TENANT,
    identifier,
    normalizeMobile(identifier),
  );
  const key = user
    ? `${user.tenant_id}:${user.id}`
    : `${tenantCode}:${normalizeMobile(identifier).toLowerCase()}`;
  return { tenant, user, key };
}

/** Sign-in attempts at the account from every address together. */
export const accountAttemptsKey = (account: SignInAccount) => `login:${account.key}`;

/** Sign-in codes are bound to the account, so no other code (an SMS sign-in's) stands in. */
export const signInCodeRecipient = (account: SignInAccount) => `sign-in:${account.key}`;

/**
 * Where the account's sign-in code goes: its mobile by SMS, else its e-mail. An unknown account
 * gets a code that is never delivered, answered like a real one.
 */
export async function signInCodeDelivery(
  sql: Sql,
  account: SignInAccount,
): Promise<{ channel: CaptchaChannel; deliverTo: string | undefined }> {
  if (!account.user) return { channel: 'sms', deliverTo: undefined };
  const { rows } = await sql.query<{ mobile: string | null; email: string | null }>(
    'SELECT mobile, email FROM sys_user WHERE id = $1',
    [account.user.id],
  );
  const contact = rows[0];
  if (contact?.mobile) return { channel: 'sms', deliverTo: contact.mobile };
  return { channel: 'email', deliverTo: contact?.email ?? undefined };
}
