import { AppError } from '../../../http/app-error';

/** An amount as people read it: yuan with two decimals (amounts are fen everywhere else). */
export const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

const onField = (status: number, key: string, field: string, params?: Record<string, string>) =>
  new AppError(status, key, { params, fields: [{ field, key, params }] });

/** The ledger's refusals, translated by the error handler and naming the field to correct. */
export const insufficientBalance = (field: string, amountFen: number, availableFen: number) =>
  onField(409, 'billing.insufficientBalance', field, {
    amount: yuan(amountFen),
    available: yuan(availableFen),
  });
export const keyReused = (field: string) => onField(409, 'billing.idempotencyKeyReused', field);
export const holdMissing = (field: string) => onField(400, 'billing.holdMissing', field);
export const holdEnded = (field: string) => onField(409, 'billing.holdEnded', field);
export const txnMissing = (field: string) => onField(400, 'billing.txnMissing', field);
export const notReversible = (field: string) => onField(400, 'billing.notReversible', field);
export const alreadyReversed = (field: string) => onField(409, 'billing.alreadyReversed', field);
/** An online payment recharged already (its reference), under another idempotency key. */
export const onlineRefTaken = (field: string, ref: string) =>
  onField(409, 'billing.onlineRefTaken', field, { ref: ref.slice(0, 128) });
export const householdMissing = (field: string) => onField(400, 'billing.householdMissing', field);
/** A card or controller the tenant does not have (the entity kit's message for a missing record). */
export const refMissing = (field: string) => onField(400, 'validation.refMissing', field);
