import { z } from 'zod';
import { idSchema as id } from '../entity-kit/schemas';
import { LED_PATH } from '../entities/monitor/led-program.entity';
import { ledPagesSchema, type LedPage } from '../led/led-program-content';
import { commandViewSchema } from './iot-control';

/** The LED area's calls besides its program entity's generic ones. */
export const LED_CALLS = {
  content: `${LED_PATH}/queryLedProgramContent`,
  saveContent: `${LED_PATH}/saveLedProgramContent`,
  copy: `${LED_PATH}/copyLedProgram`,
  send: `${LED_PATH}/sendLedProgram`,
  sends: `${LED_PATH}/queryLedProgramSend`,
} as const;

/** The command a screen takes a program with, and the one that updates its live values. */
export const LED_SET_PROGRAM = 'setProgram';
export const LED_UPDATE_VALUES = 'updateValues';
export const LED_SCREEN_KIND = 'led_screen';
/** How long a program waits for a screen that is offline before it expires (1 h). */
export const LED_SEND_EXPIRES_SECONDS = 3600;
/** Most screens one send reaches. */
export const LED_SEND_MAX_SCREENS = 50;

const invalid = { error: 'validation.invalid' };

export const ledProgramIdSchema = z.object({ id });

/** PUT saveLedProgramContent: the editor saves the resolution and the pages together. */
export const ledProgramContentSaveSchema = z.object({
  id,
  width: z.number(invalid).int(invalid).min(16).max(1024),
  height: z.number(invalid).int(invalid).min(8).max(512),
  pages: ledPagesSchema,
});
export type LedProgramContentSave = z.input<typeof ledProgramContentSaveSchema>;

/** A program with its pages, as the editor and the preview read it. */
export const ledProgramContentSchema = z.object({
  id: z.string(),
  programNo: z.string(),
  programName: z.string(),
  width: z.number(),
  height: z.number(),
  // The pages as stored (checked by ledPagesSchema when saved): an answer is not parsed again.
  pages: z.array(z.unknown()),
});
export type LedProgramContent = { pages: LedPage[] } & Omit<
  z.infer<typeof ledProgramContentSchema>,
  'pages'
>;

/** POST sendLedProgram: one program to one or more screens. */
export const ledSendSchema = z.object({
  programId: id,
  deviceIds: z.array(id).min(1).max(LED_SEND_MAX_SCREENS),
});
export type LedSendInput = z.input<typeof ledSendSchema>;

/** One screen's part of a send: the command that carries the program, as it stands now. */
export const ledSendResultSchema = z.object({
  deviceId: z.string(),
  deviceNo: z.string(),
  deviceName: z.string(),
  online: z.boolean(),
  command: commandViewSchema,
});
export type LedSendResult = z.infer<typeof ledSendResultSchema>;

/** GET queryLedProgramSend?commandIds=1,2: the sends' commands as they stand now. */
export const ledSendQuerySchema = z.object({
  commandIds: z
    .string()
    .max(20 * LED_SEND_MAX_SCREENS)
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^\d{1,18}$/, invalid))
        .min(1)
        .max(LED_SEND_MAX_SCREENS),
    ),
});
