import { paramProblem, type ThingParam } from '@shuili/contract';
import type { Translate } from '../../../resource/field-rules';
import { unitText } from '../units';

/**
 * What a typed number means: a number only when the text is one, else the text itself, so the
 * check below refuses it by name (never cleared or clamped into something else to send).
 */
export function parseTypedNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The message for a value the parameter refuses, in the reader's language and naming the
 * parameter, or undefined when it may be sent. The rule is the contract's paramProblem, the one
 * the server applies before it records or publishes anything.
 */
export function paramMessage(
  param: ThingParam,
  name: string,
  value: unknown,
  t: Translate,
): string | undefined {
  const problem = paramProblem(param, value);
  if (!problem) return undefined;
  const options = { param: name, min: param.min, max: param.max };
  switch (problem.key) {
    case 'iot.paramRequired':
      return t('iot.command.problem.required', options);
    case 'iot.paramNotOption':
      return t('iot.command.problem.notOption', options);
    case 'iot.paramOutOfRange':
      if (param.min === undefined) return t('iot.command.problem.atMost', options);
      if (param.max === undefined) return t('iot.command.problem.atLeast', options);
      return t('iot.command.problem.outOfRange', options);
    default:
      if (param.type === 'integer') return t('iot.command.problem.integer', options);
      if (param.type === 'number') return t('iot.command.problem.number', options);
      return t('iot.command.problem.wrongType', options);
  }
}

/** A parameter's value as the operator reads it in a confirmation: option label, unit, on/off. */
export function paramValueText(
  param: ThingParam,
  value: unknown,
  label: (name: ThingParam['name']) => string,
  t: Translate,
): string {
  if (param.type === 'boolean')
    return t(value === true || value === 1 ? 'iot.command.on' : 'iot.command.off');
  if (param.type === 'enum') {
    const option = param.options?.find((one) => one.value === value);
    if (option) return label(option.label);
  }
  return param.unit ? `${String(value)} ${unitText(param.unit, t)}` : String(value);
}
