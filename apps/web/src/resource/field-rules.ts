import { LIMITS, type FieldDef } from '@shuili/contract';
import type { Rule } from 'antd/es/form';

/** A translation function: key and interpolation values in, text out. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * Pattern message keys of the contract (validation.*) the web translates under
 * resource.pattern.*; any other key falls back to a generic "is invalid".
 */
export const PATTERN_MESSAGES = [
  'apiUrl',
  'cameraUrl',
  'cardNo',
  'clientId',
  'dictType',
  'digits',
  'email',
  'fieldList',
  'idNumber',
  'identifier',
  'invalid',
  'ledProgramNo',
  'mobile',
  'paramKey',
  'roleCode',
  'tenantCode',
  'thingKey',
  'timeOfDay',
  'url',
] as const;

const TEXT_KINDS = new Set(['input', 'textarea', 'richtext', 'password']);

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The web's text for a contract message key such as 'validation.email'. */
export function patternMessage(key: string, field: string, t: Translate): string {
  const name = key.replace(/^validation\./, '');
  const known = (PATTERN_MESSAGES as readonly string[]).includes(name);
  return t(`resource.pattern.${known ? name : 'invalid'}`, { field });
}

/** Whether a form value counts as empty (nothing to check beyond "required"). */
function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** Kinds the user picks from (a select, a switch, a date): "choose", not "enter". */
const CHOICE_KINDS = new Set(['select', 'dict', 'ref', 'tree-ref', 'refs', 'datetime', 'icon']);

/** Whether the field is chosen rather than typed (tags with fixed options are chosen too). */
export function isChoice(field: FieldDef): boolean {
  return (
    CHOICE_KINDS.has(field.kind) || !!field.targetsBy || (field.kind === 'tags' && !!field.options)
  );
}

function requiredRule(field: FieldDef, label: string, t: Translate): Rule {
  const message = t(isChoice(field) ? 'validation.requiredChoice' : 'validation.required', {
    field: label,
  });
  switch (field.kind) {
    case 'refs':
    case 'tags':
      return { required: true, type: 'array', min: 1, message };
    case 'number':
    case 'status':
      return { required: true, type: 'number', message };
    case 'switch':
      return { required: true, type: 'boolean', message };
    case 'ref':
    case 'tree-ref':
    case 'datetime':
      // Objects (a chosen option, a date): only their absence counts.
      return { required: true, message };
    default:
      // Passwords keep their spaces (spec §5); other text is trimmed before it is sent.
      return { required: true, whitespace: field.kind !== 'password', message };
  }
}

/**
 * The form rules of one field, derived from its declaration: required, length or range,
 * pattern, and the contract's own format check (email, mobile) with translated messages.
 */
export function fieldRules(field: FieldDef, label: string, t: Translate): Rule[] {
  const rules: Rule[] = [];
  if (field.required) rules.push(requiredRule(field, label, t));

  // Passwords carry their limits in the contract's schema only (spec §5: 6 to 31); a secret
  // (an app client's) declares its own.
  const limits = field.kind === 'password' && field.max === undefined ? LIMITS.password : field;
  if (TEXT_KINDS.has(field.kind) && limits.max !== undefined) {
    const max = limits.max;
    const min = limits.min !== undefined && limits.min > 1 ? limits.min : undefined;
    rules.push({
      type: 'string',
      min,
      max,
      transform: field.kind === 'password' || field.kind === 'richtext' ? undefined : trim,
      message:
        min !== undefined
          ? t('validation.length', { field: label, min, max })
          : t('resource.rule.maxLength', { field: label, max }),
    });
  }

  if (field.kind === 'number') {
    if (field.sql === 'integer' || field.sql === 'smallint' || field.sql === 'bigint') {
      rules.push({ type: 'integer', message: t('resource.rule.wholeNumber', { field: label }) });
    }
    const places = field.precision;
    if (field.sql === 'double precision' && places !== undefined) {
      // The server refuses more places than the column keeps (they would be lost unseen).
      rules.push({
        validator: async (_rule, value: unknown) => {
          if (typeof value === 'number' && Number(value.toFixed(places)) !== value)
            throw new Error(t('resource.rule.decimals', { field: label, places }));
        },
      });
    }
    rules.push({
      type: 'number',
      min: field.min,
      max: field.max,
      message: t('resource.rule.numberRange', { field: label, min: field.min, max: field.max }),
    });
  }

  if (field.pattern) {
    rules.push({
      pattern: new RegExp(field.pattern.source),
      transform: trim,
      message: patternMessage(field.pattern.key, label, t),
    });
  }

  if (field.kind === 'input' && !field.pattern) {
    // Formats the declaration carries only in its schema (email, mobile): the contract's own
    // check, so the form agrees with the server, with the web's words for its message.
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (isBlank(value)) return;
        const result = field.input.safeParse(trim(value));
        if (result.success) return;
        const key = result.error.issues.find((issue) => issue.message.startsWith('validation.'));
        // Length issues are the length rule's business; only named formats speak here.
        if (key && key.message !== 'validation.required') {
          throw new Error(patternMessage(key.message, label, t));
        }
      },
    });
  }
  return rules;
}
