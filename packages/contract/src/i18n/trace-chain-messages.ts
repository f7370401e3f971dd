import type { Lang } from './lang';

/**
 * Server messages of a batch's chain (/traceabilitySystem/resume, docs/traceability.md
 * "Resume"); messages.ts spreads them in.
 */
export const TRACE_CHAIN_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'trace.chain.notFound': '{field}: there is no batch {value} here',
    'trace.chain.recalledCertificate':
      '{field}: this package batch is recalled; no certificate of compliance is issued for it',
  },
  zh: {
    'trace.chain.notFound': '{field}：没有批次 {value}',
    'trace.chain.recalledCertificate': '{field}：该包装批次已召回，不能出具承诺达标合格证',
  },
  tw: {
    'trace.chain.notFound': '{field}：沒有批次 {value}',
    'trace.chain.recalledCertificate': '{field}：該包裝批次已召回，不能出具承諾達標合格證',
  },
};
