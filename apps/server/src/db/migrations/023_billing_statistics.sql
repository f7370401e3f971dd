-- Money statistics by day (issue 20; modules/billing/reports/statistics.service.ts): a year of a
-- million ledger entries by village must answer in well under half a second, which a scan of the
-- entries cannot promise. The ledger is append-only and a transaction's created_at is when it was
-- posted, so a day two days past never changes: its sums per village, controller and cashier are
-- kept here the first time a statistics query covers it, and read instead of its entries after.
-- Days are the tenant's calendar days in the zone named beside them (another zone, other days).
-- A household's money counts for the village it was in when its day was summed.
CREATE TABLE billing_stat_day (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  time_zone text NOT NULL,
  day date NOT NULL,
  village text,
  controller_id bigint,
  cashier_id bigint,
  -- Each less its reversals (a reversal counts under its original's village and controller).
  charged_fen bigint NOT NULL,
  recharged_fen bigint NOT NULL,
  refunded_fen bigint NOT NULL
);
CREATE INDEX billing_stat_day_range ON billing_stat_day (tenant_id, time_zone, day);

-- The days summed: claimed by the query that sums them (INSERT … ON CONFLICT DO NOTHING), so two
-- queries never sum one day twice; the second waits for the first's commit and reads its rows.
CREATE TABLE billing_stat_day_done (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  time_zone text NOT NULL,
  day date NOT NULL,
  PRIMARY KEY (tenant_id, time_zone, day)
);

-- Water and energy come from the sessions by their end (late records add to past days, so they
-- are never kept as sums): finished sessions of a range of days.
CREATE INDEX billing_session_ended ON billing_session (tenant_id, ended_at)
  WHERE state IN ('settled', 'consumed');
