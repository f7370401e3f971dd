import { i18n } from './i18n';

/** How a missing key is announced in the console (the every-screen test listens for it). */
export const MISSING_KEY_WARNING = 'i18n: missing key ';

/**
 * From here on, a key with no text in the language on screen (which the page would show raw,
 * `iot.map.coordinates`) is announced in the console. The console shell turns it on, not i18n.ts,
 * so the sign-in page carries none of it. i18next reads these options on every lookup.
 */
export function reportMissingKeys(): void {
  if (i18n.options.saveMissing) return;
  i18n.options.saveMissing = true;
  i18n.options.missingKeyHandler = (_langs, _namespace, key) =>
    console.warn(`${MISSING_KEY_WARNING}${key}`);
}
