import {
  TOTP_STEP_SECONDS,
  TOTP_WINDOW,
  totpCode,
  totpStep,
} from '@shuili/server/modules/uaa/totp';

/**
 * What tests and tools remember of the TOTP second factors they enrolled (the platform tenant's
 * administrators must have one): the secret and recovery codes the server showed once, and the
 * last time step used, since the server never accepts a step twice.
 */
interface Remembered {
  secret: string;
  lastStep: number;
  recoveryCodes: string[];
}

const remembered = new Map<string, Remembered>();

const keyOf = (serverUrl: string, tenantCode: string, username: string) =>
  `${new URL(serverUrl).origin}|${tenantCode.toLowerCase()}|${username.toLowerCase()}`;

/** Keeps the secret an enrolment showed (the server never shows it again). */
export function rememberSecondFactor(
  serverUrl: string,
  tenantCode: string,
  username: string,
  secret: string,
): void {
  remembered.set(keyOf(serverUrl, tenantCode, username), {
    secret,
    lastStep: 0,
    recoveryCodes: [],
  });
}

export function rememberRecoveryCodes(
  serverUrl: string,
  tenantCode: string,
  username: string,
  codes: string[] | undefined,
): void {
  const account = remembered.get(keyOf(serverUrl, tenantCode, username));
  if (account && codes) account.recoveryCodes = [...codes];
}

export function knowsSecondFactor(serverUrl: string, tenantCode: string, username: string) {
  return remembered.has(keyOf(serverUrl, tenantCode, username));
}

/** Marks a step used by something else (a test that typed a code itself). */
export function markStepUsed(
  serverUrl: string,
  tenantCode: string,
  username: string,
  step: number,
): void {
  const account = remembered.get(keyOf(serverUrl, tenantCode, username));
  if (account) account.lastStep = Math.max(account.lastStep, step);
}

/**
 * A code the server will take now: the current step, else the next one (both inside its ±1
 * window, whatever the clock does meanwhile), else a recovery code, else it waits for the next
 * step. Each answer is reserved at once, so parallel sign-ins never present the same step.
 */
export async function nextSecondFactorCode(
  serverUrl: string,
  tenantCode: string,
  username: string,
): Promise<string> {
  const account = remembered.get(keyOf(serverUrl, tenantCode, username));
  if (!account)
    throw new Error(`no second factor remembered for ${tenantCode}/${username} on ${serverUrl}`);
  for (;;) {
    const now = totpStep();
    const step = Math.max(now, account.lastStep + 1);
    if (step <= now + TOTP_WINDOW) {
      account.lastStep = step;
      return totpCode(account.secret, step);
    }
    const recovery = account.recoveryCodes.shift();
    if (recovery) return recovery;
    const wait = (account.lastStep * TOTP_STEP_SECONDS + 1) * 1000 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 100)));
  }
}
