-- The scheduler core (DESIGN §6a, docs/scheduler.md): everything that runs at a time runs from
-- a trigger row here. A node claims a due trigger by compare-and-set (FOR UPDATE SKIP LOCKED,
-- then an UPDATE that re-checks the state) in the same transaction that records the run, so a
-- trigger fires once however many nodes poll. The claim is a lease: a node that dies mid-run
-- leaves a lease that lapses, and another node takes the same run over (same run id, the next
-- attempt), so processors are idempotent by run id.

CREATE TABLE scheduler_trigger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  -- Which processor runs it (registerProcessor); generic on purpose: jobs add their own kinds.
  kind text NOT NULL,
  -- The caller's name of the trigger: scheduling the same key again replaces it (idempotent).
  key text NOT NULL,
  -- The occurrence this trigger stands for: a run is unique per trigger and fire time.
  fire_at timestamptz NOT NULL,
  -- When to try next: fire_at, or later after a failed attempt (backoff).
  due_at timestamptz NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- null: fires once; else the rule of the next fire time (recurrence.ts), read in the tenant's
  -- time zone.
  recurrence jsonb,
  state text NOT NULL DEFAULT 'waiting'
    CHECK (state IN ('waiting', 'running', 'done', 'failed', 'cancelled')),
  -- Attempts at the current occurrence (reset when a recurring trigger moves on).
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  lease_owner text,
  lease_until timestamptz,
  last_error text,
  last_run_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, key)
);

-- What the poller reads every second: waiting triggers by due time, running ones by lease.
CREATE INDEX scheduler_trigger_due ON scheduler_trigger (due_at) WHERE state = 'waiting';
CREATE INDEX scheduler_trigger_lease ON scheduler_trigger (lease_until) WHERE state = 'running';
CREATE INDEX scheduler_trigger_kind ON scheduler_trigger (tenant_id, kind);

-- One row per occurrence of a trigger (its history: when, which node, what it decided). Kept
-- when the trigger goes (no foreign key), so a cancelled schedule's runs stay readable.
CREATE TABLE scheduler_run (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  trigger_id bigint NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  fire_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'running'
    -- retrying: an attempt failed, the next one is due (the same run, so the same id).
    CHECK (state IN ('running', 'retrying', 'succeeded', 'failed', 'skipped')),
  attempt integer NOT NULL DEFAULT 1,
  node text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- What the processor decided (e.g. {"decision": "skipped", "reason": ...}).
  result jsonb,
  error text,
  UNIQUE (trigger_id, fire_at)
);
CREATE INDEX scheduler_run_key ON scheduler_run (tenant_id, key, fire_at DESC);
CREATE INDEX scheduler_run_kind ON scheduler_run (tenant_id, kind, fire_at DESC);

-- Wakes the pollers of every node when a trigger becomes due soon (sent at commit), so a
-- trigger scheduled a moment ahead fires on time rather than at the next poll.
CREATE FUNCTION scheduler_trigger_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'waiting' AND NEW.due_at <= now() + interval '1 minute' THEN
    PERFORM pg_notify('shuili_scheduler',
      (extract(epoch FROM NEW.due_at) * 1000)::bigint::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER scheduler_trigger_notify AFTER INSERT OR UPDATE OF due_at, state
  ON scheduler_trigger FOR EACH ROW EXECUTE FUNCTION scheduler_trigger_notify();

-- What a run already did, for processors idempotent by run id: a run that sends a command
-- records (run, effect) in the transaction that records the command, so an attempt taken over
-- by another node finds the command instead of sending it again.
CREATE TABLE scheduler_run_effect (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  run_id bigint NOT NULL,
  effect text NOT NULL,
  -- The command it sent (no foreign key: iot_command is an entity table, created later).
  command_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, effect)
);

-- Irrigation (issue 18) on the scheduler core: the valve channels a running rotation schedule
-- or soil-moisture rule holds, one holder per channel. Manual control of a held channel is
-- refused naming the holder (a command guard); the hold ends at `until` or when its holder stops.
CREATE TABLE irrigation_channel_hold (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  channel integer NOT NULL,
  -- "rotation:<scheduleId>" or "soilRule:<ruleId>".
  holder text NOT NULL,
  holder_name text NOT NULL,
  until timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, device_id, channel)
);
CREATE INDEX irrigation_channel_hold_holder ON irrigation_channel_hold (tenant_id, holder);
