import { ENTITIES, type Lang } from '@shuili/contract';
import type { TFunction } from 'i18next';
import type admin from '../../i18n/features/admin/en.json';

type Verb = keyof typeof admin.operationLog.verbs;
type Action = keyof typeof admin.operationLog.actions;

const ENTITY_VERBS: ReadonlySet<string> = new Set<Verb>(['add', 'update', 'delete', 'status']);
const byName = new Map(ENTITIES.map((entity) => [entity.name, entity]));

/**
 * The operation log's action in the reader's language. The server stores a language-neutral key
 * (apps/server/src/modules/audit/audit-route.ts): `add:SysPost` for the generic entity routes,
 * read as the entity's title and the verb, or the spec's call name (`sendCommand`). A key with
 * no text (a call added since, or a row written before keys) is shown as stored.
 */
export function operationActionText(key: string, t: TFunction, lang: Lang): string {
  const [verb, name] = key.split(':');
  const entity = name ? byName.get(name) : undefined;
  if (verb && entity && ENTITY_VERBS.has(verb)) {
    return t(`operationLog.verbs.${verb as Verb}`, { what: entity.title[lang] });
  }
  return t(`operationLog.actions.${key as Action}`, { defaultValue: key });
}
