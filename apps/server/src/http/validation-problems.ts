import type { FieldProblem } from './app-error';

/** The parts of a zod issue (or fastify-type-provider-zod's copy of one) that name a problem. */
export interface IssueLike {
  code?: string;
  keyword?: string;
  path?: PropertyKey[];
  instancePath?: string;
  message: string;
  params?: Record<string, unknown>;
  [extra: string]: unknown;
}

/**
 * Turns zod issues into field problems with message keys. A schema may name its own key
 * (`validation.*`) as the message; otherwise the key follows the issue code. An issue about the
 * whole input (a JSON list or plain text where an object belongs) is named after the part that
 * was wrong (`root`: body, querystring, params), so even that names a field.
 */
export function issuesToProblems(issues: readonly IssueLike[], root = ''): FieldProblem[] {
  return issues.map((issue): FieldProblem => {
    const detail = { ...(issue.params ?? {}), ...issue } as Record<string, unknown>;
    const code = String(issue.code ?? issue.keyword ?? 'invalid');
    const pathParts = issue.path ?? (issue.instancePath ?? '').split('/').filter(Boolean);
    // A bad item of a list is a problem of the list field ("roleIds", not "roleIds.0"): that is
    // the name the form shows the message beside.
    const firstIndex = pathParts.findIndex(
      (part) => typeof part === 'number' || /^\d+$/.test(String(part)),
    );
    let field = (firstIndex > 0 ? pathParts.slice(0, firstIndex) : pathParts).map(String).join('.');
    if (code === 'unrecognized_keys' && Array.isArray(detail.keys))
      field = detail.keys.map(String).join(', ');
    if (field === '') field = root;
    if (issue.message.startsWith('validation.')) return { field, key: issue.message };
    const isNumber = detail.origin === 'number' || detail.origin === 'bigint';
    switch (code) {
      case 'invalid_type':
        return {
          field,
          key:
            detail.input === undefined && /received undefined/.test(issue.message)
              ? 'validation.required'
              : 'validation.invalid',
        };
      case 'too_small':
        if (!isNumber && Number(detail.minimum) === 1) return { field, key: 'validation.required' };
        return {
          field,
          key: isNumber ? 'validation.too_small.number' : 'validation.too_small',
          params: { min: String(detail.minimum) },
        };
      case 'too_big':
        return {
          field,
          key: isNumber ? 'validation.too_big.number' : 'validation.too_big',
          params: { max: String(detail.maximum) },
        };
      case 'invalid_value':
        return {
          field,
          key: 'validation.invalid_value',
          params: {
            values: Array.isArray(detail.values) ? detail.values.map(String).join(', ') : '',
          },
        };
      case 'invalid_format':
        return {
          field,
          key: detail.format === 'email' ? 'validation.email' : 'validation.invalid',
        };
      case 'unrecognized_keys':
        return { field, key: 'validation.unrecognized_keys' };
      default:
        return { field, key: 'validation.invalid' };
    }
  });
}
