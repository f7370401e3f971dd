import { z } from 'zod';
import { idSchema as id } from '../entity-kit/schemas';
import type { ThingModel } from '../iot/thing-model';

/**
 * An LED program (DOMAINS.md "LED screens"): pages shown one after another, each for its
 * duration, each a set of elements placed in screen pixels: text, an image (a device image of
 * the IoT engine) or a live value (a device property, shown with its unit and decimals and
 * updated on the screen as readings arrive: the server sends the screen `updateValues`).
 */

/** The screen sizes a program may have (P10 cabinets up to a large roadside board). */
export const LED_RESOLUTION = { minWidth: 16, maxWidth: 1024, minHeight: 8, maxHeight: 512 };
export const LED_MAX_PAGES = 16;
export const LED_MAX_ELEMENTS = 32;
export const LED_FONT_SIZES = { min: 6, max: 96 };
export const LED_PAGE_SECONDS = { min: 1, max: 3600 };
/** The longest program sent to a screen as its command's `content` (JSON characters). */
export const LED_CONTENT_MAX_CHARS = 30_000;

export const LED_ELEMENT_TYPES = ['text', 'image', 'live'] as const;
export type LedElementType = (typeof LED_ELEMENT_TYPES)[number];

const COLOR = /^#[0-9a-fA-F]{6}$/;
const invalid = { error: 'validation.invalid' };
const pixel = z.number(invalid).int(invalid).min(0, invalid).max(4096, invalid);

/** What a live value shows: a device's property, with a unit and decimals. */
export const ledBindingSchema = z.object({
  deviceId: id,
  property: z.string().trim().min(1).max(64),
  unit: z.string().trim().max(16).default(''),
  decimals: z.number(invalid).int(invalid).min(0).max(4).default(1),
});
export type LedBinding = z.infer<typeof ledBindingSchema>;

export const ledElementSchema = z.object({
  /** Unique within its page (the editor's handle, the screen's key of a live value). */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, invalid),
  type: z.enum(LED_ELEMENT_TYPES),
  x: pixel,
  y: pixel,
  width: pixel.min(1, invalid),
  height: pixel.min(1, invalid),
  color: z.string().regex(COLOR, invalid).default('#ff0000'),
  fontSize: z
    .number(invalid)
    .int(invalid)
    .min(LED_FONT_SIZES.min)
    .max(LED_FONT_SIZES.max)
    .default(16),
  align: z.enum(['left', 'center', 'right']).default('left'),
  /** A text's words; a live value's caption before the number ("渠道水位"). */
  text: z.string().max(200).default(''),
  /** An image element's device image (iot_device_file id, an image). */
  fileId: id.optional(),
  binding: ledBindingSchema.optional(),
});
export type LedElement = z.infer<typeof ledElementSchema>;
export type LedElementInput = z.input<typeof ledElementSchema>;

export const ledPageSchema = z.object({
  durationSeconds: z
    .number(invalid)
    .int(invalid)
    .min(LED_PAGE_SECONDS.min)
    .max(LED_PAGE_SECONDS.max)
    .default(10),
  background: z.string().regex(COLOR, invalid).default('#000000'),
  elements: z.array(ledElementSchema).max(LED_MAX_ELEMENTS).default([]),
});
export type LedPage = z.infer<typeof ledPageSchema>;

export const ledPagesSchema = z.array(ledPageSchema).min(1).max(LED_MAX_PAGES);

/** A program's problem before translation: `key` of the contract's catalogue (led.*). */
export interface LedProblem {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

/** What the checks need to know of a bound device: its name and its thing model. */
export interface LedBoundDevice {
  deviceName: string;
  thingModel: ThingModel;
}

/** The numeric kinds of property a live value can show. */
const SHOWABLE = new Set(['number', 'integer', 'boolean', 'enum']);

/**
 * The checks beyond shapes, shared by the editor (as it draws) and the server (before it
 * stores): every element inside the resolution, ids unique per page, a text with words, an image
 * with its file, a live value bound to a numeric property its device has. `devices` holds the
 * bound devices the caller may see (absent: not checked, the editor before it loaded them).
 */
export function ledProgramProblems(
  pages: readonly LedPage[],
  resolution: { width: number; height: number },
  devices?: ReadonlyMap<string, LedBoundDevice>,
): LedProblem[] {
  const problems: LedProblem[] = [];
  pages.forEach((page, p) => {
    const seen = new Set<string>();
    page.elements.forEach((element, e) => {
      const field = `pages.${p}.elements.${e}`;
      const where = { page: p + 1, element: e + 1 };
      if (seen.has(element.id))
        problems.push({ field: `${field}.id`, key: 'led.elementIdTwice', params: where });
      seen.add(element.id);
      if (
        element.x + element.width > resolution.width ||
        element.y + element.height > resolution.height
      )
        problems.push({
          field,
          key: 'led.elementOutside',
          params: { ...where, width: resolution.width, height: resolution.height },
        });
      if (element.type === 'text' && element.text.trim() === '')
        problems.push({ field: `${field}.text`, key: 'led.textRequired', params: where });
      if (element.type === 'image' && !element.fileId)
        problems.push({ field: `${field}.fileId`, key: 'led.imageRequired', params: where });
      if (element.type === 'live') {
        const binding = element.binding;
        if (!binding) {
          problems.push({ field: `${field}.binding`, key: 'led.bindingRequired', params: where });
          return;
        }
        if (!devices) return;
        const device = devices.get(binding.deviceId);
        if (!device) {
          problems.push({
            field: `${field}.binding.deviceId`,
            key: 'led.bindingDeviceMissing',
            params: where,
          });
          return;
        }
        const property = device.thingModel.properties.find(
          (candidate) => candidate.key === binding.property,
        );
        if (!property || !SHOWABLE.has(property.type))
          problems.push({
            field: `${field}.binding.property`,
            key: 'led.bindingPropertyMissing',
            params: { ...where, device: device.deviceName, property: binding.property },
          });
      }
    });
  });
  return problems;
}

/** The devices a program's live values read. */
export function ledBoundDeviceIds(pages: readonly LedPage[]): string[] {
  const ids = new Set<string>();
  for (const page of pages)
    for (const element of page.elements)
      if (element.type === 'live' && element.binding) ids.add(element.binding.deviceId);
  return [...ids];
}

/** The key of a bound value in `updateValues` and on the screen: `<deviceId>.<property>`. */
export const ledValueKey = (binding: Pick<LedBinding, 'deviceId' | 'property'>) =>
  `${binding.deviceId}.${binding.property}`;

/** A live value as the screen draws it: caption, the number at its decimals, the unit. */
export function ledLiveText(element: LedElement, value: number | null | undefined): string {
  const binding = element.binding;
  const number =
    value === null || value === undefined || !Number.isFinite(value)
      ? '--'
      : value.toFixed(binding?.decimals ?? 1);
  return [element.text.trim(), `${number}${binding?.unit ? ` ${binding.unit}` : ''}`]
    .filter(Boolean)
    .join(' ');
}

/**
 * What the setProgram command carries as `content`: the pages, and for each bound value the
 * value at the moment of sending (so the screen shows numbers before the first update).
 */
export interface LedProgramPayload {
  programNo: string;
  width: number;
  height: number;
  pages: LedPage[];
  values: Record<string, number>;
}
