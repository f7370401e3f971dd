import { dataPermissionEntity, ENTITIES, type Lang } from '@shuili/contract';
import { useMemo } from 'react';
import { useLocaleStore } from '../../i18n/i18n';
import { labelIn } from '../../resource/field-label';
import type { ResourceRow } from '../../resource/resource-row';
import { ResourcePage } from '../../resource/ResourcePage';

// The screen a rule's menu code stands for, whose fields the rule lists.
const byMenuCode = new Map(ENTITIES.map((entity) => [entity.menuCode, entity]));

/** The rule's menu and visible fields by their names in the reader's language, codes on hover. */
function cellsIn(lang: Lang) {
  return {
    menuCode: (value: unknown) => {
      const entity = byMenuCode.get(String(value));
      return entity ? (
        <span title={String(value)}>{labelIn(entity.title, lang)}</span>
      ) : (
        String(value ?? '')
      );
    },
    dataFields: (value: unknown, row: ResourceRow) => {
      const fields = byMenuCode.get(String(row.menuCode))?.fields;
      if (!fields || typeof value !== 'string') return String(value ?? '');
      const names = value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .map((name) => (fields[name] ? labelIn(fields[name].label, lang) : name));
      return <span title={value}>{names.join(lang === 'en' ? ', ' : '、')}</span>;
    },
  };
}

/** Spec §2 /authority/datapermission: the data fields each role may see per menu. */
export function DataPermissionPage() {
  const lang = useLocaleStore((state) => state.lang);
  const cellRenderers = useMemo(() => cellsIn(lang), [lang]);
  return <ResourcePage entity={dataPermissionEntity} cellRenderers={cellRenderers} />;
}
