import type { Expectation } from './fuzz-request';

export interface Answer {
  status: number;
  body: unknown;
}

const CJK = /[\u3400-\u9fff]/;
/** A message key or an unfilled placeholder that leaked instead of text. */
const UNTRANSLATED = /^[a-z]+(\.[A-Za-z_-]+)+$|\{[a-z]+\}/;

/** Why a message is not proper text in the caller's language (undefined when it is). */
function untranslated(message: unknown, lang: 'en' | 'zh'): string | undefined {
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (UNTRANSLATED.test(message)) return `untranslated message "${message}"`;
  // A label that came out empty leaves the message starting with a space (" is invalid").
  if (message !== message.trimStart()) return `message without its field name "${message}"`;
  if (lang === 'zh' && !CJK.test(message)) return `message not in Chinese "${message}"`;
  return undefined;
}

/** Problems with a 400's envelope: shape, language, named fields. */
function envelopeProblems(body: any, lang: 'en' | 'zh'): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== 'object') return ['400 without a JSON envelope'];
  if (body.code !== 400 || body.data !== null || !('message' in body))
    problems.push('400 not in the envelope {code: 400, message, data: null}');
  const headline = untranslated(body.message, lang);
  if (headline) problems.push(headline);
  for (const error of Array.isArray(body.errors) ? body.errors : []) {
    if (typeof error?.field !== 'string' || error.field === '')
      problems.push(`an error names no field: ${JSON.stringify(error)}`);
    const text = untranslated(error?.message, lang);
    if (text) problems.push(`${error?.field}: ${text}`);
  }
  return problems;
}

/**
 * Everything wrong with an answer: a 5xx always; a refused input must get a 400 envelope,
 * translated, naming exactly the fields its schema names; any 400 must be a translated envelope.
 */
export function answerProblems(
  expectation: Expectation,
  answer: Answer,
  lang: 'en' | 'zh',
): string[] {
  if (answer.status >= 500) return [`server error ${answer.status}`];
  const body = answer.body as any;
  switch (expectation.kind) {
    case 'unsupportedMedia':
      return answer.status === 415 ? [] : [`expected 415, got ${answer.status}`];
    case 'urlTooLong':
      return answer.status === 431 || answer.status === 414
        ? []
        : [`expected 431 for a request line past the limit, got ${answer.status}`];
    case 'tooLarge':
      return answer.status === 413 ? [] : [`expected 413, got ${answer.status}`];
    case 'badJson':
      if (answer.status !== 400) return [`expected 400 for unparseable JSON, got ${answer.status}`];
      return envelopeProblems(body, lang);
    case 'invalid': {
      if (answer.status !== 400) return [`expected 400, got ${answer.status}`];
      const problems = envelopeProblems(body, lang);
      const fields = Array.isArray(body?.errors)
        ? [...new Set(body.errors.map((error: any) => error?.field))].sort()
        : [];
      if (JSON.stringify(fields) !== JSON.stringify(expectation.fields))
        problems.push(
          `fields ${JSON.stringify(fields)} instead of ${JSON.stringify(expectation.fields)}`,
        );
      return problems;
    }
    case 'accepted':
      return answer.status === 400 ? envelopeProblems(body, lang) : [];
    case 'survives':
      return [];
  }
}
