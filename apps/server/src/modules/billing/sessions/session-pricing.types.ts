import type { ControllerBillingMode } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** How a well charges, as the controller is told at a swipe (authorizeSession). */
export interface WellTerms {
  billingMode: ControllerBillingMode;
  /** Fen per unit of the mode (kWh, m³, hour; m³ for energyToWater): the household's base. */
  unitPriceFen: number;
  /** m³ per kWh valid at that time (energyToWater), else null. */
  m3PerKwh: number | null;
}

/** What a session's meters read at both ends. */
export interface MeteredSession {
  tenantId: string;
  deviceId: string;
  householdId: string;
  startedAt: Date;
  endedAt: Date;
  kwhStart: number;
  kwhEnd: number;
  m3Start: number;
  m3End: number;
}

/** A session priced: the water it counts against the household's quota, and its charge. */
export interface PricedSession {
  billingMode: ControllerBillingMode;
  unitPriceFen: number;
  m3PerKwh: number | null;
  /** The water drawn (m³): the meter's, or kWh × the coefficient for energyToWater. */
  volumeM3: number;
  energyKwh: number;
  durationSeconds: number;
  amountFen: number;
  /** The tiers the volume fell in (pricing's own shape), stored with the session. */
  tierParts: unknown;
}

/** Pricing as the sessions use it (session-pricing.ts, on the water-set helper's functions). */
export interface SessionPricing {
  termsAt(
    sql: Sql,
    input: { tenantId: string; deviceId: string; householdId: string; at: Date },
  ): Promise<WellTerms>;
  price(sql: Sql, session: MeteredSession): Promise<PricedSession>;
}
