import { ROLE_ADMIN, type EntityDef } from '@shuili/contract';
import type { AuthContext } from '../http/request-context';

/** The grant look-up of the URL guard (UrlGrantService.allows). */
export interface FieldGrants {
  allows(tenantId: string, roleCode: string, url: string): Promise<boolean>;
}

/**
 * The fields the caller may read: those its data permissions leave (`visible`; undefined: all)
 * less each field whose read grant (FieldDef.readGrant) its role lacks, so another screen's data
 * (a device's alarm level, its live values) reaches only roles that may open that screen's call.
 * Answers `visible` itself when nothing is taken away.
 */
export async function readableFields(
  entity: EntityDef,
  visible: ReadonlySet<string> | undefined,
  auth: Pick<AuthContext, 'tenantId' | 'activeRole'>,
  grants: FieldGrants,
): Promise<ReadonlySet<string> | undefined> {
  if (auth.activeRole === ROLE_ADMIN) return visible;
  const denied: string[] = [];
  for (const [name, field] of Object.entries(entity.fields))
    if (field.readGrant && !(await grants.allows(auth.tenantId, auth.activeRole, field.readGrant)))
      denied.push(name);
  if (denied.length === 0) return visible;
  const readable = new Set(visible ?? Object.keys(entity.fields));
  // A list's one-value name (a user's roleId) is as readable as the list (data-field.service.ts).
  for (const [name, field] of Object.entries(entity.fields))
    if (field.singular && readable.has(name)) readable.add(field.singular);
  for (const name of denied) readable.delete(name);
  return readable;
}
