import type { Lang } from './lang';

/**
 * Server messages of the public trace page (GET /api/trace/public/{code}, docs/traceability.md
 * "Public page"); messages.ts spreads them in.
 */
export const TRACE_PUBLIC_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'trace.public.notFound': 'No product has the trace code {code}',
    'trace.public.codeEmpty': '{field}: type the trace code',
    'trace.public.codeCharacters':
      '{field}: a trace code has only the digits 0–9 and the letters A–Z',
    'trace.public.codeLength': '{field}: a trace code has 12 characters',
    'trace.public.codeCheck': '{field}: this code is mistyped (its check character does not match)',
  },
  zh: {
    'trace.public.notFound': '没有溯源码为{code}的产品',
    'trace.public.codeEmpty': '{field}：请输入溯源码',
    'trace.public.codeCharacters': '{field}：溯源码只含数字0–9和字母A–Z',
    'trace.public.codeLength': '{field}：溯源码为12位',
    'trace.public.codeCheck': '{field}：溯源码有误（校验位不符）',
  },
  tw: {
    'trace.public.notFound': '沒有溯源碼為{code}的產品',
    'trace.public.codeEmpty': '{field}：請輸入溯源碼',
    'trace.public.codeCharacters': '{field}：溯源碼只含數字0–9和字母A–Z',
    'trace.public.codeLength': '{field}：溯源碼為12位',
    'trace.public.codeCheck': '{field}：溯源碼有誤（檢查碼不符）',
  },
};
