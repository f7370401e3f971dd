import type { Lang } from '@shuili/contract';
import type { Sql } from '../db/database';
import type { AuthContext } from '../http/request-context';
import type { Row } from './entity-repo';

/** What a hook knows about the call it runs in (inside the call's transaction). */
export interface EntityContext {
  sql: Sql;
  auth: AuthContext;
  lang: Lang;
  /** The tenant rows are written for (null for platform and shared entities). */
  tenantId: string | null;
}

/**
 * An entity's own rules around the generic calls. Hooks run in the same transaction as the
 * write, so a hook that throws leaves nothing behind.
 */
export interface EntityHooks {
  /** Checks and adjusts validated input; answers extra columns to store (a password's hash). */
  beforeCreate?(ctx: EntityContext, values: Row): Promise<Row | void>;
  /** Replaces the generic insert entirely (a tenant is provisioned, not inserted); answers the id. */
  create?(ctx: EntityContext, values: Row): Promise<string>;
  /** Answers fields to add to the reply (a generated secret, shown once). */
  afterCreate?(ctx: EntityContext, id: string, values: Row): Promise<Row | void>;
  beforeUpdate?(ctx: EntityContext, id: string, values: Row): Promise<Row | void>;
  afterUpdate?(ctx: EntityContext, id: string, values: Row): Promise<void>;
  /** After rows were enabled (1) or disabled (0). */
  afterStatus?(ctx: EntityContext, ids: string[], status: number): Promise<void>;
  beforeDelete?(ctx: EntityContext, ids: string[]): Promise<void>;
  /** After any write, inside its transaction. */
  afterWrite?(ctx: EntityContext): Promise<void> | void;
  /**
   * After a write's transaction committed. Caches of what was written are dropped here: dropped
   * inside the transaction, a concurrent reader could fill them again from the old rows.
   */
  afterCommit?(): void;
}
