import type { FieldDef } from '@shuili/contract';
import type { Rule } from 'antd/es/form';
import type { ParseKeys } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from './field-label';
import { fieldRules, type Translate } from './field-rules';

/** The translation function with keys built at run time (pattern messages, field labels). */
export function useTranslate(): Translate {
  const { t } = useTranslation();
  return useCallback(
    (key: string, values?: Record<string, unknown>) => t(key as ParseKeys, values ?? {}) as string,
    [t],
  );
}

/** Form rules of declared fields in the current language. */
export function useFieldRules(): (field: FieldDef) => Rule[] {
  const translate = useTranslate();
  const label = useLabel();
  return useCallback(
    (field: FieldDef) => fieldRules(field, label(field.label), translate),
    [translate, label],
  );
}
