import {
  PUBLIC_TRACE_SECTIONS,
  TRACE_PAGE_LOGO_DATA,
  TRACE_PAGE_LOGO_MAX_BYTES,
  TRACE_PAGE_LOGO_PATH,
  type TracePageSettingInput,
} from '@shuili/contract';
import { imageTypeOf } from '../../files/image-type';
import { fieldError } from '../../files/device-file-receive';
import type { PageSettingRow } from '../public/public-trace.repo';

/**
 * The settings as they are stored, once what the schema cannot judge is checked: the logo is a
 * path on this server or an inline PNG, JPEG, GIF or WebP image of at most
 * TRACE_PAGE_LOGO_MAX_BYTES whose bytes are the type it declares (the public page's answer lets
 * nothing else through, docs/traceability.md). Refusals are 400s naming `logo`.
 */
export function checkedSetting(input: TracePageSettingInput): PageSettingRow {
  const logo = input.logo ?? null;
  if (logo !== null) checkLogo(logo);
  // Every section, so what is stored says what the page shows.
  const sections = Object.fromEntries(
    PUBLIC_TRACE_SECTIONS.map((section) => [section, input.sections?.[section] !== false]),
  );
  return {
    title: input.title ?? null,
    color: input.color ? input.color.toLowerCase() : null,
    logo,
    contact: input.contact ?? null,
    sections,
  };
}

function checkLogo(logo: string): void {
  if (TRACE_PAGE_LOGO_PATH.test(logo)) return;
  const inline = TRACE_PAGE_LOGO_DATA.exec(logo);
  if (!inline) throw fieldError('logo', 'trace.pageSetting.logoForm');
  const [, type, base64] = inline;
  const bytes = Buffer.from(base64!, 'base64');
  if (bytes.length > TRACE_PAGE_LOGO_MAX_BYTES)
    throw fieldError('logo', 'trace.pageSetting.logoTooLarge', {
      max: TRACE_PAGE_LOGO_MAX_BYTES / 1024,
    });
  if (bytes.length === 0 || imageTypeOf(bytes) !== type)
    throw fieldError('logo', 'trace.pageSetting.logoNotImage', { type: type!.slice(6) });
}
