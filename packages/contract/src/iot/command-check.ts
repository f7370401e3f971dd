import {
  checkThingValue,
  SET_PROPERTY_COMMAND,
  type ThingModel,
  type ThingParam,
} from './thing-model';

/**
 * Why a command's parameter cannot be sent, before translation: `key` is a message of the
 * contract's catalogue (i18n/messages.ts), `field` is `params.<key>` (or `name`, `params`).
 * The server answers these as a 400; the console shows the same beside its inputs.
 */
export interface ParamProblem {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

/** A value's problem for one parameter (type, integer, min, max, enum), none when it fits. */
export function paramProblem(param: ThingParam, value: unknown): ParamProblem | undefined {
  const field = `params.${param.key}`;
  if (value === undefined || value === null || value === '')
    return { field, key: 'iot.paramRequired', params: { param: param.key } };
  const checked = checkThingValue(param, value);
  if (checked.ok) return undefined;
  if (checked.problem === 'outOfRange')
    return param.type === 'enum'
      ? {
          field,
          key: 'iot.paramNotOption',
          params: {
            param: param.key,
            values: (param.options ?? []).map((option) => option.value).join(', '),
          },
        }
      : {
          field,
          key: 'iot.paramOutOfRange',
          params: { param: param.key, min: param.min ?? '-∞', max: param.max ?? '∞' },
        };
  return { field, key: 'iot.paramWrongType', params: { param: param.key, type: param.type } };
}

/**
 * Checks a command against a thing model: a command it declares with exactly its parameters,
 * or `setProperty` with values of writable properties. Answers every problem (none: it may be
 * sent) and the command's acknowledgement timeout.
 */
export function checkCommandParams(
  model: ThingModel,
  name: string,
  params: Record<string, unknown>,
): { problems: ParamProblem[]; timeoutSeconds: number } {
  const problems: ParamProblem[] = [];
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
      const problem = paramProblem(property, params[key]);
      if (problem) problems.push(problem);
    }
    return { problems, timeoutSeconds: 30 };
  }
  const command = model.commands.find((one) => one.key === name);
  if (!command)
    return {
      problems: [{ field: 'name', key: 'iot.unknownCommand', params: { command: name } }],
      timeoutSeconds: 30,
    };
  for (const key of Object.keys(params)) {
    if (!command.params.some((param) => param.key === key))
      problems.push({
        field: `params.${key}`,
        key: 'iot.paramUnknown',
        params: { param: key, command: name },
      });
  }
  for (const param of command.params) {
    const problem = paramProblem(param, params[param.key]);
    if (problem) problems.push(problem);
  }
  return { problems, timeoutSeconds: command.timeoutSeconds };
}
