import { ledProgramProblems } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import { AppError } from '../../../http/app-error';
import { EMPTY_PAGES, ledProgramRepo } from './led-program.repo';

/**
 * A new program starts with one empty page (the editor opens on it); a resolution changed on the
 * list's form must still hold every element of the pages, else 400 naming the side that cuts.
 */
export const ledProgramHooks: EntityHooks = {
  async afterCreate(ctx: EntityContext, id: string) {
    await ctx.sql.query('UPDATE monitor_led_program SET content = $2::jsonb WHERE id = $1', [
      id,
      JSON.stringify(EMPTY_PAGES),
    ]);
  },

  async beforeUpdate(ctx: EntityContext, id: string, values: Row) {
    if (values.width === undefined && values.height === undefined) return;
    const program = await ledProgramRepo.program(ctx.sql, id);
    if (!program) return;
    const width = (values.width as number | undefined) ?? program.width;
    const height = (values.height as number | undefined) ?? program.height;
    const outside = ledProgramProblems(program.pages, { width, height }).some(
      (problem) => problem.key === 'led.elementOutside',
    );
    if (outside)
      throw new AppError(400, 'validation.invalid', {
        fields: [
          {
            field: width < program.width ? 'width' : 'height',
            key: 'led.resizeCutsElements',
            params: { width, height },
          },
        ],
      });
  },
};
