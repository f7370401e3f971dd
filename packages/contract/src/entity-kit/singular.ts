import { z } from 'zod';

/** Blank form values mean "no value". */
const blankToNull = (value: unknown) => (value === '' ? null : value);

/** A list field of a body and the spec's name for one value of it (roleIds and roleId). */
export interface SingularName {
  /** The list field, e.g. roleIds. */
  list: string;
  /** The spec's singular name, e.g. roleId (spec §3 User). */
  singular: string;
  /** Validates one value of the list. */
  element: z.ZodType;
  /** The body must give the list one way or the other (add: a user holds a role). */
  required: boolean;
}

/**
 * A strict body that also takes the spec's singular name of a list field: `roleId` is the list
 * `[roleId]`. Given together they must agree (the singular one of the list), so neither is
 * silently dropped; the parsed body holds the list alone, so nothing behind it changes. Without
 * either, a required list is "required" under the list's name, as before.
 */
export function withSingularNames(
  shape: Record<string, z.ZodType>,
  names: readonly SingularName[],
): z.ZodType {
  if (names.length === 0) return z.strictObject(shape);
  const widened: Record<string, z.ZodType> = { ...shape };
  for (const name of names) {
    // The list alone is no longer required: its singular may stand for it.
    const list = shape[name.list]!;
    widened[name.list] = list.optional();
    widened[name.singular] = z.preprocess(blankToNull, name.element.nullable().optional());
  }
  return z
    .strictObject(widened)
    .superRefine((body, ctx) => {
      for (const name of names) {
        const one = body[name.singular];
        const list = body[name.list];
        if (one != null && Array.isArray(list) && !list.map(String).includes(String(one)))
          ctx.addIssue({
            code: 'custom',
            path: [name.singular],
            message: 'validation.singularNotInList',
            input: one,
          });
        if (name.required && one == null && list === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [name.list],
            message: 'validation.required',
            input: undefined,
          });
      }
    })
    .transform((body) => {
      const parsed: Record<string, unknown> = { ...body };
      for (const name of names) {
        const one = parsed[name.singular];
        delete parsed[name.singular];
        if (one != null && parsed[name.list] === undefined) parsed[name.list] = [one];
      }
      return parsed;
    });
}
