-- The service desk (issue 20; modules/billing/cards): write after commit, the idempotency of
-- the card lifecycle calls, and the card readers the desks used. tenancy.sql gives every table
-- the tenant policy. No foreign keys to billing_card or billing_household: entity tables are made
-- after the migrations (as 018 explains); the cards service joins them.

-- A card image the server answered after a change committed (a recharge, a refund, a
-- replacement): the card must hold balance_fen with write sequence `sequence`, written by the
-- desk's reader with compare-and-write on sequence - 1. pending until the desk confirms;
-- written once it does; failed when the cashier gave up (then offered for reversal through the
-- ledger: reversal_txn_id); superseded when a newer image of the same card replaced it (images
-- carry the whole balance the ledger says, so the newer one includes this one's change).
CREATE TABLE billing_card_write (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  card_id bigint NOT NULL,
  card_no text NOT NULL,
  household_id bigint,
  reason text NOT NULL CHECK (reason IN ('recharge', 'refund', 'replace')),
  -- The ledger transaction whose result the image carries (none for a replacement).
  txn_id bigint,
  amount_fen bigint,
  balance_fen bigint NOT NULL CHECK (balance_fen >= 0),
  sequence bigint NOT NULL CHECK (sequence > 0),
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'written', 'failed', 'superseded')),
  attempts integer NOT NULL DEFAULT 0,
  problem text CHECK (length(problem) <= 200),
  reversal_txn_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((reason = 'replace') = (txn_id IS NULL)),
  CHECK (reversal_txn_id IS NULL OR state = 'failed')
);
-- One write per ledger transaction (a replayed recharge answers the same write).
CREATE UNIQUE INDEX billing_card_write_txn ON billing_card_write (tenant_id, txn_id)
  WHERE txn_id IS NOT NULL;
-- A card's writes not yet on it (the desk retries them when the card is next read).
CREATE INDEX billing_card_write_card ON billing_card_write (tenant_id, card_id, id)
  WHERE state IN ('pending', 'failed');
CREATE INDEX billing_card_write_state ON billing_card_write (tenant_id, state, id);

-- A lifecycle call (bind, report lost, replace, reclaim) by its client-made request id: a retry
-- answers the stored result instead of acting twice; the same id with another request is refused.
CREATE TABLE billing_card_operation (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  request_id text NOT NULL CHECK (length(request_id) BETWEEN 1 AND 128),
  kind text NOT NULL CHECK (kind IN ('bind', 'reportLost', 'replace', 'reclaim')),
  request_hash text NOT NULL,
  card_id bigint NOT NULL,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  UNIQUE (tenant_id, request_id)
);
CREATE INDEX billing_card_operation_card ON billing_card_operation (tenant_id, card_id, id);

-- The card readers service desks used (spec /skgg/readDeviceList): one row per reader and user,
-- reported by the console with each desk operation.
CREATE TABLE billing_desk_reader (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  serial text NOT NULL CHECK (length(serial) BETWEEN 1 AND 128),
  backend text NOT NULL CHECK (backend IN ('simulated', 'pcsc')),
  user_id bigint NOT NULL,
  username text NOT NULL,
  last_operation text NOT NULL,
  operations bigint NOT NULL DEFAULT 1,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, serial, backend, user_id)
);
