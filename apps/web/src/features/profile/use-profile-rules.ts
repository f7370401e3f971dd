import type { Rule } from 'antd/es/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthRules } from '../auth/use-auth-rules';

/** Limits of the server's updateSysUserDetail schema that spec §5 leaves to the form. */
export const PROFILE_LIMITS = {
  geographic: 200,
  address: 200,
  profile: 1000,
  avatar: 500,
} as const;

const HTTP_URL = /^https?:\/\/\S+$/i;

function isRequired(rule: Rule): boolean {
  return typeof rule === 'object' && 'required' in rule && rule.required === true;
}

/** The spec §5 rules of the auth forms, made optional: a blank value clears the field. */
function optional(rules: readonly Rule[]): Rule[] {
  return rules.filter((rule) => !isRequired(rule));
}

/** Rules of the profile form and the change-password dialog, built on the sign-in forms' rules. */
export function useProfileRules() {
  const { t } = useTranslation();
  const auth = useAuthRules();

  return useMemo(() => {
    const maxLength = (field: string, max: number): Rule => ({
      type: 'string',
      max,
      message: t('profile.tooLong', { field, max }),
    });
    const required = (field: string): Rule => ({
      required: true,
      message: t('validation.required', { field }),
    });

    return {
      nickname: [
        { ...required(t('profile.nickname')), whitespace: true },
        ...auth.nickname,
      ] satisfies Rule[],
      email: optional(auth.email),
      mobile: optional(auth.mobile),
      geographic: [maxLength(t('profile.geographic'), PROFILE_LIMITS.geographic)] satisfies Rule[],
      address: [maxLength(t('profile.address'), PROFILE_LIMITS.address)] satisfies Rule[],
      profile: [maxLength(t('profile.profile'), PROFILE_LIMITS.profile)] satisfies Rule[],
      avatar: [
        maxLength(t('profile.avatar'), PROFILE_LIMITS.avatar),
        {
          pattern: HTTP_URL,
          transform: (value: unknown) => (typeof value === 'string' ? value.trim() : value),
          message: t('profile.avatarUrl'),
        },
      ] satisfies Rule[],
      // Spec §5 change password: all three required, new one 6–31, confirm equal to it.
      oldPassword: [required(t('password.oldPassword'))] satisfies Rule[],
      newPassword: [
        required(t('password.newPassword')),
        ...optional(auth.newPassword),
      ] satisfies Rule[],
      confirmNewPassword: [
        required(t('password.confirmNewPassword')),
        ...optional(auth.confirmPassword('newPassword')),
      ] satisfies Rule[],
    };
  }, [t, auth]);
}
