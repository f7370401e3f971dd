import { columnOf, type EntityDef } from '@shuili/contract';
import { AppError } from '../http/app-error';
import { PG, pgErrorOf } from '../db/pg-errors';

/** The declared field whose column a constraint or index name mentions (the longest match). */
function fieldOfConstraint(entity: EntityDef, constraint: string | undefined): string | undefined {
  if (!constraint) return undefined;
  let best: string | undefined;
  let bestLength = 0;
  for (const [name, field] of Object.entries(entity.fields)) {
    const column = field.link ? field.link.linkTable : columnOf(name, field);
    if (constraint.includes(column) && column.length > bestLength) {
      best = name;
      bestLength = column.length;
    }
  }
  return best;
}

/**
 * Turns what the database refused into the caller's error: a taken unique value (409 on the
 * field), a reference to something that does not exist in the tenant (400 on the field), or a
 * row still in use by others (409). Anything else is rethrown as it is.
 */
export function translateDbError(
  entity: EntityDef,
  error: unknown,
  during: 'write' | 'delete',
): never {
  const pg = pgErrorOf(error);
  if (pg?.code === PG.uniqueViolation) {
    const field = fieldOfConstraint(entity, pg.constraint);
    const uniqueTogether = entity.uniqueTogether?.find((key) => key.some((name) => name === field));
    throw new AppError(409, 'conflict.taken', {
      fields: field ? [{ field: uniqueTogether?.[0] ?? field, key: 'conflict.taken' }] : undefined,
    });
  }
  if (pg?.code === PG.foreignKeyViolation) {
    if (during === 'delete') throw new AppError(409, 'conflict.inUse');
    const field = fieldOfConstraint(entity, pg.constraint);
    throw new AppError(400, 'validation.refMissing', {
      fields: field ? [{ field, key: 'validation.refMissing' }] : undefined,
    });
  }
  if (pg?.code === PG.checkViolation) {
    const field = fieldOfConstraint(entity, pg.constraint);
    throw new AppError(400, 'validation.invalid', {
      fields: field ? [{ field, key: 'validation.invalid' }] : undefined,
    });
  }
  if (
    pg?.code === PG.invalidText ||
    pg?.code === '22003' ||
    pg?.code === '22007' ||
    pg?.code === '22008'
  ) {
    throw new AppError(400, 'validation.invalid');
  }
  throw error;
}
