import { TOAST_MS, type FieldError } from '@shuili/contract';
import type { FormInstance } from 'antd';
import { feedback } from './feedback';
import { HttpError } from './http';

/**
 * Shows a 400's field errors next to the form's own fields (spec §5 / DESIGN §12: the error names
 * the field). Returns the errors that name no field of this form, for the caller to toast.
 */
export function applyFieldErrors(
  form: FormInstance,
  errors: readonly FieldError[],
  formFields: readonly string[],
): FieldError[] {
  const byField = new Map<string, string[]>();
  const unplaced: FieldError[] = [];
  for (const error of errors) {
    if (formFields.includes(error.field)) {
      byField.set(error.field, [...(byField.get(error.field) ?? []), error.message]);
    } else {
      unplaced.push(error);
    }
  }
  form.setFields([...byField].map(([name, messages]) => ({ name, errors: messages })));
  return unplaced;
}

/**
 * A form submit's failure: field errors beside their fields, the rest in one error toast. Other
 * failures were already reported by the HTTP client.
 */
export function reportFormError(
  form: FormInstance,
  error: unknown,
  formFields: readonly string[],
): void {
  if (!(error instanceof HttpError)) return;
  const unplaced = applyFieldErrors(form, error.fieldErrors, formFields);
  if (unplaced.length > 0) {
    feedback.error(unplaced.map((item) => item.message).join('; '), TOAST_MS.error / 1000);
  }
}
