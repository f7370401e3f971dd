import {
  CARD_CALLS,
  type BindCardInput,
  type CardWrite,
  type ConfirmCardWriteInput,
  type DeskCard,
  type DeskReader,
  type DeskReaderRow,
  type DeskResult,
  type RechargeCardInput,
  type ReclaimCardInput,
  type RefundCardInput,
  type ReplaceCardInput,
  type ReportLostCardInput,
  type ReverseCardWriteInput,
} from '@shuili/contract';
import { http } from '../../../lib/http';

/** Query keys of the desk's reads (a change at the desk refreshes them). */
export const DESK_KEYS = {
  card: (cardNo: string) => ['billing', 'desk', 'card', cardNo] as const,
  all: ['billing', 'desk'] as const,
  readers: ['billing', 'desk', 'readers'] as const,
};

/** A new idempotency key: one per intended operation, sent again on its retries. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The service desk's calls (contract billing/card-calls.ts). Changing calls report field errors
 * to the form that made them (quietFieldErrors); the rest the HTTP client toasts, translated.
 */
export const deskApi = {
  card: (cardNo: string, reader: DeskReader | undefined, signal?: AbortSignal) =>
    http.get<DeskCard>(CARD_CALLS.deskCard, {
      params: { cardNo, readerSerial: reader?.serial, readerBackend: reader?.backend },
      signal,
      silent: true,
    }),
  bind: (data: BindCardInput) =>
    http.post<DeskResult>(CARD_CALLS.bind, { data, quietFieldErrors: true }),
  reportLost: (data: ReportLostCardInput) =>
    http.post<DeskResult>(CARD_CALLS.reportLost, { data, quietFieldErrors: true }),
  replace: (data: ReplaceCardInput) =>
    http.post<DeskResult>(CARD_CALLS.replace, { data, quietFieldErrors: true }),
  reclaim: (data: ReclaimCardInput) =>
    http.post<DeskResult>(CARD_CALLS.reclaim, { data, quietFieldErrors: true }),
  recharge: (data: RechargeCardInput) =>
    http.post<DeskResult>(CARD_CALLS.recharge, { data, quietFieldErrors: true }),
  refund: (data: RefundCardInput) =>
    http.post<DeskResult>(CARD_CALLS.refund, { data, quietFieldErrors: true }),
  confirmWrite: (data: ConfirmCardWriteInput) =>
    http.post<CardWrite>(CARD_CALLS.confirmWrite, { data }),
  reverseWrite: (data: ReverseCardWriteInput) =>
    http.post<CardWrite>(CARD_CALLS.reverseWrite, { data }),
  writes: (params: { state?: string; cardNo?: string }, signal?: AbortSignal) =>
    http.get<CardWrite[]>(CARD_CALLS.writes, { params, signal }),
  readers: (signal?: AbortSignal) => http.get<DeskReaderRow[]>(CARD_CALLS.readers, { signal }),
};
