import { checkCommandParams, thingModelSchema, type ThingModel } from '@shuili/contract';
import { AppError } from '../../../http/app-error';

/** Parses a stored thing model; a product without one (or a broken one) accepts nothing. */
export function thingModelOf(stored: unknown): ThingModel {
  const parsed = thingModelSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : { properties: [], events: [], commands: [] };
}

/**
 * Checks a command against the device's thing model with the check the console runs too
 * (contract checkCommandParams: type, integer, min, max, enum, required, unknown). Answers the
 * command's acknowledgement timeout; throws a 400 naming every offending parameter, before
 * anything is recorded or published.
 */
export function checkCommand(
  model: ThingModel,
  name: string,
  params: Record<string, unknown>,
): { timeoutSeconds: number } {
  const { problems, timeoutSeconds } = checkCommandParams(model, name, params);
  if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
  return { timeoutSeconds };
}

/**
 * The parameters that pick what a command acts on: those its `property` template names
 * (`valve{channel}State`: the channel). Two commands of one name conflict only on the same
 * target; a command without a template has one target, the device.
 */
export function commandTarget(
  model: ThingModel,
  name: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const template = model.commands.find((command) => command.key === name)?.property ?? '';
  const target: Record<string, unknown> = {};
  for (const [, key] of template.matchAll(/\{(\w+)\}/g))
    if (key !== undefined && params[key] !== undefined) target[key] = params[key];
  return target;
}
