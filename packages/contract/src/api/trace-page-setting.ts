import { z } from 'zod';
import { TRACE_PATH } from '../entities/trace/trace-targets';
import { PUBLIC_TRACE_SECTIONS } from '../trace/public-trace-paths';

/**
 * The public trace page's settings per tenant (/traceabilitySystem/traceHomeMode,
 * docs/traceability.md "Public page settings"): its title, colour, logo, the sections it shows and
 * a contact line, kept in trace_page_setting and read by GET /api/trace/public/{code}.
 */
export const TRACE_PAGE_SETTING_CALLS = {
  /** GET: the tenant's settings (defaults when none are saved) and codes to preview with. */
  query: `${TRACE_PATH}/pageSetting/queryPageSetting`,
  /** POST: saves the settings (all of them; a section left out is shown). */
  save: `${TRACE_PATH}/pageSetting/savePageSetting`,
  /** POST: back to the defaults (the row is removed). */
  reset: `${TRACE_PATH}/pageSetting/resetPageSetting`,
  /**
   * POST: what the public page of one of the tenant's codes would answer with these (unsaved)
   * settings: the public call's own answer, without counting a scan.
   */
  preview: `${TRACE_PATH}/pageSetting/previewPageSetting`,
} as const;

export const TRACE_PAGE_TITLE_MAX = 64;
export const TRACE_PAGE_CONTACT_MAX = 255;
/** An uploaded logo is kept inline (data:image/…;base64): the page shows it at 32 px. */
export const TRACE_PAGE_LOGO_MAX_BYTES = 16 * 1024;
/** The image types a logo may be (those the public page's answer lets through). */
export const TRACE_PAGE_LOGO_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
] as const;
/** An inline logo: its type and base64 bytes. */
export const TRACE_PAGE_LOGO_DATA =
  /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;
/** A logo on this server: a path starting with one slash (no other site, no `//host`). */
export const TRACE_PAGE_LOGO_PATH = /^\/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/?-]{0,1023}$/;
/** The page's default colour (apps/web/src/public-trace/trace-home.css --brand). */
export const TRACE_PAGE_DEFAULT_COLOR = '#2e7d32';

/** A blank text is no value. */
const blank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
const text = (max: number) => z.preprocess(blank, z.string().trim().max(max).nullable().optional());

export const tracePageSectionsSchema = z.record(z.enum(PUBLIC_TRACE_SECTIONS), z.boolean());

/** POST savePageSetting / previewPageSetting's `setting`. */
export const tracePageSettingInputSchema = z.object({
  title: text(TRACE_PAGE_TITLE_MAX),
  color: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^#[0-9A-Fa-f]{6}$/, { error: 'validation.traceColor' })
      .nullable()
      .optional(),
  ),
  /** An inline image (checked further by the server: type, bytes, size) or a path here. */
  logo: z.preprocess(blank, z.string().max(100_000).nullable().optional()),
  contact: text(TRACE_PAGE_CONTACT_MAX),
  /** Sections by name: false hides one; a section not named is shown. */
  sections: z.partialRecord(z.enum(PUBLIC_TRACE_SECTIONS), z.boolean()).optional(),
});
export type TracePageSettingInput = z.infer<typeof tracePageSettingInputSchema>;

/** A package batch to preview the page with (newest first). */
export const tracePreviewCodeSchema = z.object({
  code: z.string(),
  cropName: z.string().nullable(),
  lot: z.string().nullable(),
  packedAt: z.string(),
});
export type TracePreviewCode = z.infer<typeof tracePreviewCodeSchema>;

/** GET queryPageSetting. */
export const tracePageSettingSchema = z.object({
  title: z.string().nullable(),
  color: z.string().nullable(),
  logo: z.string().nullable(),
  contact: z.string().nullable(),
  /** Every section, true when shown. */
  sections: tracePageSectionsSchema,
  /** When they were last saved (null: never, the defaults). */
  updatedAt: z.string().nullable(),
  previewCodes: z.array(tracePreviewCodeSchema),
});
export type TracePageSetting = z.infer<typeof tracePageSettingSchema>;

/** POST previewPageSetting: the settings and one of the tenant's codes (the newest when left out). */
export const tracePagePreviewSchema = tracePageSettingInputSchema.extend({
  code: z
    .string()
    .max(64)
    .regex(/^[0-9A-Za-z-]*$/, { error: 'validation.invalid' })
    .optional(),
});
export type TracePagePreviewInput = z.infer<typeof tracePagePreviewSchema>;
