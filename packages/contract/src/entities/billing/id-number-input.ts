import { z } from 'zod';
import { isValidIdNumber } from '../../billing/id-number';

/** An 18-character PRC resident ID number, upper-cased (a check character may be X). */
export const idNumberInput = () =>
  z
    .string({
      error: (issue) =>
        issue.code === 'invalid_type'
          ? issue.input === undefined || issue.input === null
            ? 'validation.required'
            : 'validation.invalid'
          : undefined,
    })
    .trim()
    .toUpperCase()
    .refine(isValidIdNumber, { error: 'validation.idNumber' });
