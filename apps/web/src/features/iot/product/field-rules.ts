import { THING_KEY_PATTERN } from '@shuili/contract';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { keyTaken } from './list-edit';

/** The languages of a name, in the order the dialogs ask for them. */
export const NAME_LANGS = ['en', 'zh', 'tw'] as const;

/**
 * A row's key, checked as thingModelSchema will (pattern, unique in its list) so the dialog says
 * so beside the field instead of the save failing later.
 */
export function useKeyRules(
  siblings: readonly { key: string }[],
  index: number | undefined,
): Rule[] {
  const { t } = useTranslation();
  return [
    { required: true, message: t('iot.thingModel.keyRequired') },
    { pattern: THING_KEY_PATTERN, message: t('iot.thingModel.keyPattern') },
    {
      validator: (_, key: string | undefined) =>
        key && keyTaken(siblings, key.trim(), index)
          ? Promise.reject(new Error(t('iot.thingModel.duplicateKey', { key })))
          : Promise.resolve(),
    },
  ];
}

/** One language of a name or an enum option's label: required, at most 64 characters. */
export function useNameRules(): Rule[] {
  const { t } = useTranslation();
  return [
    { required: true, whitespace: true, message: t('iot.thingModel.nameRequired') },
    { max: 64, message: t('iot.thingModel.tooLong', { max: 64 }) },
  ];
}
