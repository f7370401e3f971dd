-- Card controllers' sessions (issue 20 item 5; docs/card-billing.md).
--
-- billing_session: one row per card session at a well controller. A swipe the server authorized
-- opens it (state 'open', the hold's transaction in hold_txn_id); the controller's record of its
-- end settles it ('settled', settle_txn_id) or a timeout / refusal voids the hold ('voided',
-- settle_txn_id is the void). A session the controller ran offline arrives as a record without
-- a session id: it is posted as a consumption ('consumed', settle_txn_id) and flagged late.
-- Every session a controller recorded carries its (device, record_no): the key of the record,
-- posted once however often it comes. Rows change state (open -> settled), the money does not:
-- the ledger's entries (019) are the append-only truth, this is what they are about.
-- The well is device_id (no foreign key to iot_device: entity tables come after the migrations;
-- the entity declaration adds it, set to null when a device is deleted: the money stays), its
-- number kept in device_no for the history.
CREATE TABLE billing_session (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint,
  device_no text NOT NULL,
  card_id bigint,
  card_no text NOT NULL,
  household_id bigint,
  state text NOT NULL CHECK (state IN ('open', 'settled', 'voided', 'consumed')),
  record_no integer,
  swiped_at timestamptz,
  started_at timestamptz,
  ended_at timestamptz,
  kwh_start numeric(14, 3),
  kwh_end numeric(14, 3),
  m3_start numeric(14, 3),
  m3_end numeric(14, 3),
  volume_m3 numeric(14, 3),
  energy_kwh numeric(14, 3),
  duration_seconds integer,
  billing_mode text,
  unit_price_fen numeric(14, 4),
  m3_per_kwh numeric(10, 4),
  credit_fen bigint,
  amount_fen bigint,
  controller_amount_fen bigint,
  tier_parts jsonb,
  end_reason text,
  hold_txn_id bigint,
  settle_txn_id bigint,
  authorize_command_id bigint,
  late boolean NOT NULL DEFAULT false,
  lost_card boolean NOT NULL DEFAULT false,
  problem text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (amount_fen IS NULL OR amount_fen >= 0),
  CHECK (credit_fen IS NULL OR credit_fen >= 0)
);
-- A controller's record is one session, whatever the uploads (the key of the issue's item 5).
CREATE UNIQUE INDEX billing_session_record_key
  ON billing_session (tenant_id, device_id, record_no) WHERE record_no IS NOT NULL;
-- One open session per well: a controller runs one card at a time.
CREATE UNIQUE INDEX billing_session_open_well
  ON billing_session (tenant_id, device_id) WHERE state = 'open';
CREATE INDEX billing_session_household_idx ON billing_session (tenant_id, household_id, started_at);
CREATE INDEX billing_session_card_idx ON billing_session (tenant_id, card_no);

-- Every upload of a controller record as it came, with what became of it: 'posted' (the first,
-- it made or ended its session), 'duplicate' (the same record again: nothing posted), 'conflict'
-- (the same key with another amount or card: refused, raised as an alarm), 'refused' (a record
-- the server cannot post: its session is unknown, the payload is wrong; the reason in message).
CREATE TABLE billing_controller_record (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint,
  device_no text NOT NULL,
  record_no integer,
  session_id bigint,
  card_no text,
  amount_fen bigint,
  status text NOT NULL CHECK (status IN ('posted', 'duplicate', 'conflict', 'refused')),
  message text,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_controller_record_key_idx
  ON billing_controller_record (tenant_id, device_id, record_no);

-- The blacklist each controller was last sent (a hash of the blocked card numbers), so a
-- controller gets the list again only when it changed (docs/card-billing.md "Blacklist").
CREATE TABLE billing_controller_blacklist (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  blacklist_hash text NOT NULL,
  command_id bigint,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, device_id)
);

-- Card controllers of tenants provisioned before issue 20 learn the session events and commands
-- (a fresh database's catalogue has them from products.ts; a tenant that already has cardSwipe
-- keeps its model as edited). The events and commands as packages/contract/src/billing/
-- card-controller.ts declared them when this was written.
DO $$
BEGIN
  IF to_regclass('iot_product') IS NOT NULL THEN
    UPDATE iot_product p
       SET thing_model = jsonb_set(
             jsonb_set(p.thing_model, '{events}',
               coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(p.thing_model->'events') e
                          WHERE e->>'key' NOT IN ('cardSwipe', 'sessionEnd')), '[]'::jsonb)
               || '[{"key":"cardSwipe","name":{"en":"Card swiped","zh":"刷卡","tw":"刷卡"},"level":"info","params":[{"key":"cardNo","name":{"en":"Card","zh":"卡号","tw":"卡號"},"type":"string"},{"key":"cardBalanceFen","name":{"en":"Card balance","zh":"卡内余额","tw":"卡內餘額"},"type":"integer","min":0,"max":1000000000,"unit":"fen"},{"key":"cardSequence","name":{"en":"Card sequence","zh":"卡序号","tw":"卡序號"},"type":"integer","min":0,"max":2147483647}]},{"key":"sessionEnd","name":{"en":"Session ended","zh":"用水结束","tw":"用水結束"},"level":"info","params":[{"key":"recordNo","name":{"en":"Record number","zh":"记录号","tw":"記錄號"},"type":"integer","min":1,"max":2147483647},{"key":"sessionId","name":{"en":"Session","zh":"会话","tw":"會話"},"type":"string"},{"key":"cardNo","name":{"en":"Card","zh":"卡号","tw":"卡號"},"type":"string"},{"key":"startedAt","name":{"en":"Started","zh":"开始时间","tw":"開始時間"},"type":"integer","min":0,"max":8640000000000,"unit":"ms"},{"key":"endedAt","name":{"en":"Ended","zh":"结束时间","tw":"結束時間"},"type":"integer","min":0,"max":8640000000000,"unit":"ms"},{"key":"kwhStart","name":{"en":"Energy at start","zh":"开始电量","tw":"開始電量"},"type":"number","min":0,"max":1000000000,"unit":"kWh","precision":2},{"key":"kwhEnd","name":{"en":"Energy at end","zh":"结束电量","tw":"結束電量"},"type":"number","min":0,"max":1000000000,"unit":"kWh","precision":2},{"key":"m3Start","name":{"en":"Meter at start","zh":"开始水量","tw":"開始水量"},"type":"number","min":0,"max":1000000000,"unit":"m³","precision":2},{"key":"m3End","name":{"en":"Meter at end","zh":"结束水量","tw":"結束水量"},"type":"number","min":0,"max":1000000000,"unit":"m³","precision":2},{"key":"endReason","name":{"en":"End reason","zh":"结束原因","tw":"結束原因"},"type":"string"},{"key":"amountFen","name":{"en":"Amount","zh":"金额","tw":"金額"},"type":"integer","min":0,"max":1000000000,"unit":"fen"}]}]'::jsonb),
             '{commands}',
             coalesce((SELECT jsonb_agg(c) FROM jsonb_array_elements(p.thing_model->'commands') c
                        WHERE c->>'key' NOT IN ('authorizeSession', 'rejectCard', 'syncBlacklist')),
                      '[]'::jsonb)
             || '[{"key":"authorizeSession","name":{"en":"Authorize session","zh":"授权用水","tw":"授權用水"},"timeoutSeconds":30,"params":[{"key":"sessionId","name":{"en":"Session","zh":"会话","tw":"會話"},"type":"string"},{"key":"cardNo","name":{"en":"Card","zh":"卡号","tw":"卡號"},"type":"string"},{"key":"creditFen","name":{"en":"Credit","zh":"授权金额","tw":"授權金額"},"type":"integer","min":0,"max":1000000000,"unit":"fen"},{"key":"billingMode","name":{"en":"Billing mode","zh":"计费方式","tw":"計費方式"},"type":"string"},{"key":"unitPriceFen","name":{"en":"Unit price","zh":"单价","tw":"單價"},"type":"number","min":0,"max":1000000,"unit":"fen","precision":4},{"key":"m3PerKwh","name":{"en":"m³ per kWh","zh":"水电转换系数","tw":"水電轉換係數"},"type":"number","min":0,"max":1000,"precision":4}]},{"key":"rejectCard","name":{"en":"Reject card","zh":"拒绝卡","tw":"拒絕卡"},"timeoutSeconds":30,"params":[{"key":"cardNo","name":{"en":"Card","zh":"卡号","tw":"卡號"},"type":"string"},{"key":"reason","name":{"en":"Reason","zh":"原因","tw":"原因"},"type":"string"}]},{"key":"syncBlacklist","name":{"en":"Sync blacklist","zh":"同步黑名单","tw":"同步黑名單"},"timeoutSeconds":60,"params":[{"key":"cardNos","name":{"en":"Blocked cards","zh":"黑名单卡号","tw":"黑名單卡號"},"type":"string","maxLength":30000}]}]'::jsonb)
     WHERE p.device_kind = 'card_controller'
       AND jsonb_typeof(p.thing_model->'events') = 'array'
       AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p.thing_model->'events') e
                        WHERE e->>'key' = 'cardSwipe');
  END IF;
END $$;

-- The water a household drew in a year (migration 020_billing_water_rights.sql answered 0 until
-- the sessions existed): its sessions' volumes whose start falls in that year of the tenant's
-- time zone (sys_param timeZone, else Asia/Shanghai), ended ones only (an open session has drawn
-- nothing yet that anyone knows of). SECURITY INVOKER: the caller's row-level security applies.
-- sys_param is an entity table, made after the migrations: the body is checked when first run.
SET LOCAL check_function_bodies = off;
CREATE OR REPLACE FUNCTION billing_water_used_m3(tenant bigint, household bigint, year integer)
RETURNS double precision
LANGUAGE sql STABLE
AS $$
  SELECT coalesce(sum(s.volume_m3), 0)::double precision
    FROM (SELECT coalesce((SELECT p.param_value FROM sys_param p
                            WHERE p.tenant_id = tenant AND p.param_key = 'timeZone' LIMIT 1),
                          'Asia/Shanghai') AS zone) z
    JOIN billing_session s
      ON s.tenant_id = tenant AND s.household_id = household
     AND s.state IN ('settled', 'consumed')
     AND s.started_at >= make_timestamptz(year, 1, 1, 0, 0, 0, z.zone)
     AND s.started_at < make_timestamptz(year + 1, 1, 1, 0, 0, 0, z.zone)
$$;
SET LOCAL check_function_bodies = on;
