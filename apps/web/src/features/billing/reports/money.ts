import { fenToYuan } from '@shuili/contract';

/** Yuan with two decimals for a table cell; a dash where a figure does not apply. */
export const yuanCell = (fen: number | null | undefined) =>
  fen === null || fen === undefined ? '—' : fenToYuan(fen);

/** A measured quantity to its precision; a dash where it does not apply. */
export const quantityCell = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);
