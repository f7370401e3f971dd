import { CAPTCHA_PATTERN, LIMITS, MOBILE_PATTERN, TENANT_CODE_PATTERN } from '@shuili/contract';
import type { Rule } from 'antd/es/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The spec §5 form rules, with the contract's limits and translated messages. */
export function useAuthRules() {
  const { t } = useTranslation();

  return useMemo(() => {
    const required = (field: string): Rule => ({
      required: true,
      whitespace: true,
      message: t('validation.required', { field }),
    });
    // Trimmed fields are measured as they will be sent.
    const length = (field: string, min: number, max: number, trimmed = true): Rule => ({
      type: 'string',
      min,
      max,
      transform: trimmed ? trim : undefined,
      message: t('validation.length', { field, min, max }),
    });

    const password = (field: string): Rule[] => [
      // Never trimmed (spec §5): spaces are part of the password.
      { required: true, message: t('validation.required', { field }) },
      length(field, LIMITS.password.min, LIMITS.password.max, false),
    ];

    return {
      tenant: [{ required: true, message: t('validation.chooseTenant') }],
      tenantCode: [
        required(t('field.tenantCode')),
        length(t('field.tenantCode'), LIMITS.tenantCode.min, LIMITS.tenantCode.max),
        {
          pattern: TENANT_CODE_PATTERN,
          transform: trim,
          message: t('validation.tenantCode', { field: t('field.tenantCode') }),
        },
      ] satisfies Rule[],
      tenantName: [
        required(t('field.tenantName')),
        length(t('field.tenantName'), LIMITS.tenantName.min, LIMITS.tenantName.max),
      ] satisfies Rule[],
      userInfo: [
        required(t('field.userInfo')),
        length(t('field.userInfo'), LIMITS.userInfo.min, LIMITS.userInfo.max),
      ] satisfies Rule[],
      username: [
        required(t('field.username')),
        length(t('field.username'), LIMITS.username.min, LIMITS.username.max),
      ] satisfies Rule[],
      password: password(t('field.password')),
      newPassword: password(t('field.newPassword')),
      confirmPassword: (passwordField: string): Rule[] => [
        {
          required: true,
          message: t('validation.required', { field: t('field.confirmPassword') }),
        },
        ({ getFieldValue }) => ({
          validator: (_: unknown, value: unknown) =>
            !value || getFieldValue(passwordField) === value
              ? Promise.resolve()
              : Promise.reject(new Error(t('validation.passwordMismatch'))),
        }),
      ],
      email: [
        required(t('field.email')),
        { type: 'email', transform: trim, message: t('validation.email') },
        length(t('field.email'), 3, LIMITS.email.max),
      ] satisfies Rule[],
      mobile: [
        required(t('field.mobile')),
        { pattern: MOBILE_PATTERN, transform: trim, message: t('validation.mobile') },
      ] satisfies Rule[],
      captcha: (field: string): Rule[] => [
        required(field),
        { pattern: CAPTCHA_PATTERN, transform: trim, message: t('validation.captcha') },
      ],
      nickname: [length(t('field.nickname'), 0, LIMITS.nickname.max)] satisfies Rule[],
    };
  }, [t]);
}
