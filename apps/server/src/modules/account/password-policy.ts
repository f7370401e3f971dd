import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../http/app-error';
import { hashPassword } from '../uaa/password-hasher';

const LIST_FILE = fileURLToPath(new URL('./common-passwords.txt', import.meta.url));

let common: Set<string> | undefined;

/** The common-password list, read once (about 20,000 entries, a few MB in memory). */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return common;
}

export interface PasswordContext {
  /** The field the password came in, named by the 400. */
  field: string;
  username?: string | null;
  tenantCode?: string | null;
}

const refuse = (field: string, key: string) =>
  new AppError(400, key, { fields: [{ field, key }], oauthError: 'invalid_request' });

/**
 * Refuses a new password that is one of the most common ones (case-insensitive) or equals the
 * account's username or tenant code (NIST SP 800-63B §5.1.1.2). Every place a password is set
 * calls this; only the demo seed, whose documented passwords are common, does not.
 */
export function checkNewPassword(password: string, context: PasswordContext): void {
  const lowered = password.toLowerCase();
  const names = [context.username, context.tenantCode]
    .filter((name): name is string => Boolean(name))
    .map((name) => name.toLowerCase());
  if (names.includes(lowered)) throw refuse(context.field, 'validation.passwordIsName');
  if (commonPasswords().has(lowered)) throw refuse(context.field, 'validation.commonPassword');
}

/** Checks a new password (above) and hashes it. */
export async function hashNewPassword(password: string, context: PasswordContext): Promise<string> {
  checkNewPassword(password, context);
  return hashPassword(password);
}
