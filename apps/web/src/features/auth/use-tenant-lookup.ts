import { LIMITS, MOBILE_PATTERN, normalizeMobile, type TenantOption } from '@shuili/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocaleStore } from '../../i18n/i18n';
import { authApi } from './auth-api';

// Long enough not to query on every keystroke, short enough to feel immediate.
const LOOKUP_DELAY_MS = 350;

function lookupKey(raw: string): string {
  const value = raw.trim();
  if (value.length < LIMITS.userInfo.min || value.length > LIMITS.userInfo.max) return '';
  // Mobiles are stored without spaces; "+86 138..." must find the same account.
  return MOBILE_PATTERN.test(value) ? normalizeMobile(value) : value;
}

export interface TenantLookup {
  /** Looks the account up once typing pauses. */
  schedule(raw: string): void;
  /** Looks the account up now (on blur). */
  flush(raw: string): void;
  /** The account's tenants; undefined until a lookup for the current text has answered. */
  tenants: TenantOption[] | undefined;
  loading: boolean;
}

/**
 * The tenants of the typed username, email or mobile (spec §6: one user, several tenants).
 * Plain state rather than the query cache: it is one form's transient lookup, and the sign-in
 * page stays lighter without the cache library.
 */
export function useTenantLookup(initial = ''): TenantLookup {
  const [key, setKey] = useState(() => lookupKey(initial));
  const [result, setResult] = useState<{ key: string; tenants: TenantOption[] }>();
  // Tenant names come translated, so a language switch asks again.
  const lang = useLocaleStore((state) => state.lang);
  const timer = useRef<number | undefined>(undefined);

  const schedule = useCallback((raw: string) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setKey(lookupKey(raw)), LOOKUP_DELAY_MS);
  }, []);

  const flush = useCallback((raw: string) => {
    window.clearTimeout(timer.current);
    setKey(lookupKey(raw));
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    if (!key) return;
    // A newer key aborts the older lookup, so a slow answer never overwrites a fresh one.
    const controller = new AbortController();
    authApi
      .queryTenantUser(key, controller.signal)
      .then((tenants) => setResult({ key, tenants: Array.isArray(tenants) ? tenants : [] }))
      .catch(() => {
        // No tenants is what the select can say about a failed look-up.
        if (!controller.signal.aborted) setResult({ key, tenants: [] });
      });
    return () => controller.abort();
  }, [key, lang]);

  return {
    schedule,
    flush,
    tenants: key && result?.key === key ? result.tenants : undefined,
    // Waiting while the answer for the current text has not come yet.
    loading: key !== '' && result?.key !== key,
  };
}
