import { PROCESSORS, type ProcessorParam, type ProcessorType } from '@shuili/contract';

/** The processor parameter form's values, one per declared parameter (see ProcessorParamsForm). */
export type ParamValues = Record<string, unknown>;

function parseObject(text: string | null | undefined): Record<string, unknown> {
  if (!text || text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    // A text the server would refuse: the form starts from the declaration's defaults.
    return {};
  }
}

/** A stored value as the parameter's control holds it. */
function toControl(param: ProcessorParam, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  switch (param.kind) {
    case 'int': {
      const number = Number(value);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'bool':
      return value === true || value === 'true';
    case 'emails':
      return (Array.isArray(value) ? value : String(value).split(/[,;\s]+/))
        .map((item) => String(item).trim())
        .filter(Boolean);
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    case 'enum': {
      // A value the select no longer offers (an area since removed) is chosen again.
      const text = String(value);
      return param.options?.some((option) => option.value === text) ? text : undefined;
    }
    default:
      return String(value);
  }
}

/**
 * The form's values of a job's parameters (its jobParams JSON text): the declared parameters
 * only, the declaration's defaults where the text has none. Unknown keys are dropped, as the
 * server ignores them.
 */
export function paramValuesOf(
  type: ProcessorType | undefined,
  text: string | null | undefined,
): ParamValues {
  if (!type) return {};
  const given = parseObject(text);
  const values: ParamValues = {};
  for (const param of PROCESSORS[type].params) {
    const value = toControl(param, given[param.name]) ?? toControl(param, param.defaultValue);
    if (value !== undefined) values[param.name] = value;
  }
  return values;
}

/** A control's value as jobParams stores it; undefined leaves the parameter out. */
function toStored(param: ProcessorParam, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  switch (param.kind) {
    case 'int': {
      if (value === '') return undefined;
      const number = Number(value);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'bool':
      return value === true;
    case 'emails': {
      const list = (Array.isArray(value) ? value : [value])
        .map((item) => String(item).trim())
        .filter(Boolean);
      return list.length > 0 ? list : undefined;
    }
    case 'json':
      return String(value).trim() === '' ? undefined : String(value);
    default: {
      const text = String(value).trim();
      return text === '' ? undefined : text;
    }
  }
}

/**
 * The jobParams JSON text of the parameter form's values, in declaration order: what the server
 * checks with parseProcessorParams. Blank optional parameters are left out.
 */
export function jobParamsOf(
  type: ProcessorType | undefined,
  values: ParamValues | undefined,
): string {
  if (!type) return '{}';
  const stored: Record<string, unknown> = {};
  for (const param of PROCESSORS[type].params) {
    const value = toStored(param, values?.[param.name]);
    if (value !== undefined) stored[param.name] = value;
  }
  return JSON.stringify(stored);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with a parameter's form value: a translation key and its values. */
export interface ParamProblem {
  key: 'validation.required' | `jobs.form.${'badEmail' | 'tooMany' | 'badUrl' | 'badJson'}`;
  values?: Record<string, string | number>;
}

/**
 * The form's check of one parameter's value, as the server checks it (parseProcessorParams):
 * filled when required (whatever its type: a number or a switch is filled), e-mails valid and
 * not too many, an http(s) address, JSON that parses. Ranges are the number input's own.
 */
export function paramProblem(param: ProcessorParam, value: unknown): ParamProblem | undefined {
  const empty =
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0);
  if (empty) return param.required ? { key: 'validation.required' } : undefined;
  switch (param.kind) {
    case 'emails': {
      const list = (Array.isArray(value) ? value : [value]).map((item) => String(item).trim());
      const bad = list.find((item) => !EMAIL.test(item));
      if (bad) return { key: 'jobs.form.badEmail', values: { value: bad } };
      if (param.max && list.length > param.max)
        return { key: 'jobs.form.tooMany', values: { max: param.max } };
      return undefined;
    }
    case 'url': {
      const text = String(value).trim();
      return /^https?:\/\//i.test(text) && URL.canParse(text)
        ? undefined
        : { key: 'jobs.form.badUrl' };
    }
    case 'json':
      try {
        JSON.parse(String(value));
        return undefined;
      } catch {
        return { key: 'jobs.form.badJson' };
      }
    default:
      return undefined;
  }
}
