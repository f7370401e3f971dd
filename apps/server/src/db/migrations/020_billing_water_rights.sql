-- The water a household drew in a year (m³), read by the water rights' used and remaining columns
-- (contract entities/billing/water-right.entity.ts) and by the tier split of a new session.
--
-- The consumption sessions live in another table (billing_session, issue 20's sessions); until
-- that migration exists nothing has been drawn, so this answers 0. The sessions' migration
-- replaces the body (CREATE OR REPLACE, same signature) with the sum of the household's session
-- volumes whose start falls in that year in the tenant's time zone. SECURITY INVOKER (the
-- default): row-level security of the caller applies inside.
CREATE OR REPLACE FUNCTION billing_water_used_m3(tenant bigint, household bigint, year integer)
RETURNS double precision
LANGUAGE sql STABLE
AS $$ SELECT 0::double precision $$;
