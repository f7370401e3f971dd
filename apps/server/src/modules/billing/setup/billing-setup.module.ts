import {
  cardEntity,
  priceTierEntity,
  waterCoefficientEntity,
  waterRightEntity,
  wellBillingEntity,
  type EntityDef,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import type { EntityHooks } from '../../../entity/entity-hooks';
import { cardRegistrationHooks } from './card-registration.hooks';
import { priceTierHooks } from './price-tier.hooks';
import { waterCoefficientHooks } from './water-coefficient.hooks';
import { waterRightHooks } from './water-right.hooks';
import { waterRightRoutes } from './water-right.routes';
import { WaterRightService } from './water-right.service';
import { wellBillingHooks } from './well-billing.hooks';

/**
 * The rules of the billing set-up entities (households, cards, prices, water rights) around the
 * generic entity routes, for app.ts (households need none beyond their declaration: the ID
 * number's check is its field's).
 */
export const BILLING_SETUP_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [cardEntity, cardRegistrationHooks],
  [priceTierEntity, priceTierHooks],
  [wellBillingEntity, wellBillingHooks],
  [waterCoefficientEntity, waterCoefficientHooks],
  [waterRightEntity, waterRightHooks],
]);

/** The set-up calls beyond the generic ones: distributing a year's water rights. */
export async function registerBillingSetup(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  await app.register(waterRightRoutes, { rights: new WaterRightService(deps.db) });
}
