import {
  LED_CONTENT_MAX_CHARS,
  LED_SCREEN_KIND,
  LED_SEND_EXPIRES_SECONDS,
  LED_SET_PROGRAM,
  ledBoundDeviceIds,
  ledProgramProblems,
  ledValueKey,
  type CommandView,
  type Lang,
  type LedPage,
  type LedProgramContent,
  type LedProgramPayload,
  type LedSendResult,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError, notFound, type FieldProblem } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import type { CommandService } from '../../iot/command/command.service';
import { ledProgramRepo, type LedProgramRow } from './led-program.repo';

const COPY_SUFFIX: Record<Lang, string> = { en: ' (copy)', zh: '（副本）', tw: '（副本）' };

const invalid = (fields: FieldProblem[]) => new AppError(400, 'validation.invalid', { fields });

/**
 * LED programs beyond their generic calls: the pages (checked against the resolution, the bound
 * devices' thing models and the device images), copies, and sending a program to screens as the
 * IoT engine's setProgram command (one operation record per screen, acknowledged by each).
 */
export class LedProgramService {
  constructor(
    private readonly db: Database,
    private readonly commands: CommandService,
  ) {}

  async content(auth: AuthContext, id: string): Promise<LedProgramContent> {
    const program = await this.db.tenant(auth, (sql) => ledProgramRepo.program(sql, id));
    if (!program) throw notFound('error.recordNotFound');
    return program;
  }

  async saveContent(
    auth: AuthContext,
    input: { id: string; width: number; height: number; pages: LedPage[] },
  ): Promise<LedProgramContent> {
    return this.db.tenant(auth, async (sql) => {
      if (!(await ledProgramRepo.program(sql, input.id))) throw notFound('error.recordNotFound');
      const problems = await contentProblems(sql, input.pages, input);
      if (problems.length) throw invalid(problems);
      await ledProgramRepo.saveContent(sql, { ...input, userId: auth.userId });
      return (await ledProgramRepo.program(sql, input.id))!;
    });
  }

  async copy(auth: AuthContext, lang: Lang, id: string): Promise<LedProgramContent> {
    return this.db.tenant(auth, async (sql) => {
      const copied = await ledProgramRepo.copy(sql, {
        id,
        tenantId: auth.tenantId,
        nameSuffix: COPY_SUFFIX[lang],
        userId: auth.userId,
      });
      if (!copied) throw notFound('error.recordNotFound');
      return (await ledProgramRepo.program(sql, copied))!;
    });
  }

  /**
   * Sends a program to screens: every screen is checked first (an LED screen the caller sees,
   * at least the program's resolution when it reported one), then one setProgram command each,
   * delivered now or when the screen comes back (until it expires).
   */
  async send(
    auth: AuthContext,
    input: { programId: string; deviceIds: string[] },
  ): Promise<LedSendResult[]> {
    const deviceIds = [...new Set(input.deviceIds)];
    const { program, screens, payload } = await this.db.tenant(auth, async (sql) => {
      const found = await ledProgramRepo.program(sql, input.programId);
      if (!found) throw invalid([{ field: 'programId', key: 'validation.refMissing' }]);
      if (found.pages.every((page) => page.elements.length === 0))
        throw new AppError(400, 'led.programEmpty');
      const rows = await ledProgramRepo.screens(sql, deviceIds);
      const problems = screenProblems(found, deviceIds, rows);
      if (problems.length) throw invalid(problems);
      return { program: found, screens: rows, payload: await payloadOf(sql, found) };
    });
    const content = JSON.stringify(payload);
    if (content.length > LED_CONTENT_MAX_CHARS)
      throw new AppError(400, 'led.contentTooLong', {
        params: { length: content.length, max: LED_CONTENT_MAX_CHARS },
      });
    const results: LedSendResult[] = [];
    for (const deviceId of deviceIds) {
      const screen = screens.find((row) => row.id === deviceId)!;
      const command = await this.commands.send(auth, {
        deviceId,
        name: LED_SET_PROGRAM,
        params: { programId: program.programNo, content },
        expiresInSeconds: LED_SEND_EXPIRES_SECONDS,
      });
      results.push({
        deviceId,
        deviceNo: screen.deviceNo,
        deviceName: screen.deviceName,
        online: screen.online,
        command,
      });
    }
    return results;
  }

  /** The commands of earlier sends as they stand now (the page follows them until settled). */
  async sends(auth: AuthContext, commandIds: string[]): Promise<CommandView[]> {
    const views: CommandView[] = [];
    for (const id of commandIds) {
      const view = await this.commands.get(auth, id).catch(() => undefined);
      if (view && view.name === LED_SET_PROGRAM) views.push(view);
    }
    return views;
  }
}

/** The checks of a program's pages that need the database: bound devices and images. */
async function contentProblems(
  sql: Sql,
  pages: LedPage[],
  resolution: { width: number; height: number },
): Promise<FieldProblem[]> {
  const devices = await ledProgramRepo.devices(sql, ledBoundDeviceIds(pages));
  const problems: FieldProblem[] = ledProgramProblems(pages, resolution, devices);
  const fileIds = pages.flatMap((page) =>
    page.elements.flatMap((element) =>
      element.type === 'image' && element.fileId ? [element.fileId] : [],
    ),
  );
  const images = await ledProgramRepo.images(sql, fileIds);
  pages.forEach((page, p) =>
    page.elements.forEach((element, e) => {
      if (element.type === 'image' && element.fileId && !images.has(element.fileId))
        problems.push({
          field: `pages.${p}.elements.${e}.fileId`,
          key: 'led.imageMissing',
          params: { page: p + 1, element: e + 1 },
        });
    }),
  );
  return problems;
}

/** Why screens cannot take the program, each naming `deviceIds`. */
function screenProblems(
  program: LedProgramRow,
  deviceIds: string[],
  rows: Awaited<ReturnType<typeof ledProgramRepo.screens>>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const deviceId of deviceIds) {
    const screen = rows.find((row) => row.id === deviceId);
    if (!screen) {
      problems.push({ field: 'deviceIds', key: 'validation.refMissing' });
      continue;
    }
    if (screen.kind !== LED_SCREEN_KIND) {
      problems.push({
        field: 'deviceIds',
        key: 'led.notScreen',
        params: { device: screen.deviceName },
      });
      continue;
    }
    if (
      screen.width !== null &&
      screen.height !== null &&
      (program.width > screen.width || program.height > screen.height)
    )
      problems.push({
        field: 'deviceIds',
        key: 'led.programLarger',
        params: {
          device: screen.deviceName,
          width: screen.width,
          height: screen.height,
          programWidth: program.width,
          programHeight: program.height,
        },
      });
  }
  return problems;
}

/** What the screen is sent: the pages and the bound values as they are now. */
async function payloadOf(sql: Sql, program: LedProgramRow): Promise<LedProgramPayload> {
  const keys = program.pages.flatMap((page) =>
    page.elements.flatMap((element) =>
      element.type === 'live' && element.binding ? [ledValueKey(element.binding)] : [],
    ),
  );
  return {
    programNo: program.programNo,
    width: program.width,
    height: program.height,
    pages: program.pages,
    values: await ledProgramRepo.latest(sql, [...new Set(keys)]),
  };
}
