import { dictLabel, sysDictEntity } from '@shuili/contract';
import { useLocaleStore } from '../../i18n/i18n';
import { ResourcePage } from '../../resource/ResourcePage';

/**
 * Spec §2 /admin/sysdict: dictionaries, typed value lists as a tree. Built-in names are stored
 * as keys (dict.<type>.<value>) so each person reads them in their language.
 */
export function SysDictPage() {
  const lang = useLocaleStore((state) => state.lang);
  return (
    <ResourcePage
      entity={sysDictEntity}
      cellRenderers={{
        dictName: (value) => dictLabel(String(value ?? ''), lang),
        dictParent: (_value, row) => dictLabel(String(row.dictParentLabel ?? ''), lang),
      }}
    />
  );
}
