import {
  checkThingValue,
  SET_PROPERTY_COMMAND,
  thingModelSchema,
  type ThingModel,
  type ThingParam,
} from '@shuili/contract';
import { AppError, type FieldProblem } from '../../../http/app-error';

/** Parses a stored thing model; a product without one (or a broken one) accepts nothing. */
export function thingModelOf(stored: unknown): ThingModel {
  const parsed = thingModelSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : { properties: [], events: [], commands: [] };
}

function checkValue(param: ThingParam, value: unknown): FieldProblem | undefined {
  const checked = checkThingValue(param, value);
  if (checked.ok) return undefined;
  const field = `params.${param.key}`;
  if (checked.problem === 'outOfRange')
    return {
      field,
      key: 'iot.paramOutOfRange',
      params: { param: param.key, min: param.min ?? '-∞', max: param.max ?? '∞' },
    };
  return { field, key: 'iot.paramWrongType', params: { param: param.key, type: param.type } };
}

/**
 * Checks a command against the device's thing model: a command it declares with exactly its
 * parameters, or `setProperty` with values of writable properties. Answers the command's
 * acknowledgement timeout; throws a 400 naming every offending parameter.
 */
export function checkCommand(
  model: ThingModel,
  name: string,
  params: Record<string, unknown>,
): { timeoutSeconds: number } {
  const problems: FieldProblem[] = [];
  if (name === SET_PROPERTY_COMMAND) {
    const keys = Object.keys(params);
    if (keys.length === 0) problems.push({ field: 'params', key: 'iot.setPropertyEmpty' });
    for (const key of keys) {
      const property = model.properties.find((one) => one.key === key);
      if (!property || property.access !== 'rw') {
        problems.push({
          field: `params.${key}`,
          key: 'iot.propertyNotWritable',
          params: { param: key },
        });
        continue;
      }
      const problem = checkValue(property, params[key]);
      if (problem) problems.push(problem);
    }
    if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
    return { timeoutSeconds: 30 };
  }
  const command = model.commands.find((one) => one.key === name);
  if (!command)
    throw new AppError(400, 'validation.invalid', {
      fields: [{ field: 'name', key: 'iot.unknownCommand', params: { command: name } }],
    });
  for (const key of Object.keys(params)) {
    if (!command.params.some((param) => param.key === key))
      problems.push({
        field: `params.${key}`,
        key: 'iot.paramUnknown',
        params: { param: key, command: name },
      });
  }
  for (const param of command.params) {
    if (params[param.key] === undefined) {
      problems.push({
        field: `params.${param.key}`,
        key: 'iot.paramRequired',
        params: { param: param.key },
      });
      continue;
    }
    const problem = checkValue(param, params[param.key]);
    if (problem) problems.push(problem);
  }
  if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
  return { timeoutSeconds: command.timeoutSeconds };
}
