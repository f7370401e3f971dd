import { TOAST_MS } from '@shuili/contract';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { feedback } from '../../lib/feedback';
import { applyFieldErrors } from '../../lib/form-errors';
import { httpErrorText } from '../../lib/http';
import { OAuthRequestError } from '../../lib/oauth';

const FORM_FIELDS = ['tenantCode', 'username', 'password', 'mobile', 'smsCaptcha'];

/**
 * Says why a sign-in was refused. Its own chunk, fetched alongside the token request: most
 * sign-ins never need it, and the sign-in page has no room to spare.
 */
export function reportSignInError(form: FormInstance, t: TFunction, error: unknown) {
  if (error instanceof OAuthRequestError) {
    if (error.error === 'invalid_grant' || error.error === 'captcha_required') {
      // Spec §8: a 2 s warning; the server's text says which part was wrong when it can, or
      // that the code sent to the account is needed.
      feedback.warning(error.message || t('login.wrongPassword'), TOAST_MS.warning / 1000);
      return;
    }
    const unplaced = applyFieldErrors(form, error.fieldErrors, FORM_FIELDS);
    if (error.fieldErrors.length > 0 && unplaced.length === 0) return;
    const text = httpErrorText(error.status, { error_description: error.message }, error.message);
    feedback.error(text, TOAST_MS.error / 1000);
    return;
  }
  const text = error instanceof Error && error.message ? error.message : t('http.networkError');
  feedback.error(text, TOAST_MS.error / 1000);
}
