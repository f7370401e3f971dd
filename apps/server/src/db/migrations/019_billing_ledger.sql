-- The billing ledger (issue 20; DESIGN §7 "Money"): farmers' prepaid money as a double-entry,
-- append-only ledger in integer fen, with the invariants TigerBeetle and Formance state (RESEARCH
-- "Card-swipe"): every transaction's debits equal its credits; an idempotency key posts at most
-- once; nothing is updated or deleted (corrections are reversals); a hold is settled or voided
-- at most once; a household's money (and what is held of it) never goes below zero.
--
-- Written only by modules/billing/ledger (LedgerService), inside the caller's transaction.
-- tenancy.sql gives all three tables the tenant policy (they have tenant_id). The controller a
-- transaction came from is `controller_id`, not device_id: most transactions (a recharge at the
-- desk) have no device, and the device-scope policy would hide them from zoned users and refuse
-- their writes (as migration 018 explains for flood thresholds).

-- An account: a household's money (household), what a household's running sessions hold of it
-- (hold), a cashier's cash drawer (cash, owner: the user), online top-ups received (online),
-- revenue (revenue) and what households owe after late records their balance could not cover
-- (arrears, owner: the household). Made on first use. Household and hold accounts are
-- liabilities whose balance (credits − debits) is kept on each posting; the others are not
-- bounded and keep none, so no posting waits behind another on the revenue account.
CREATE TABLE billing_account (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  kind text NOT NULL
    CHECK (kind IN ('household', 'hold', 'cash', 'online', 'revenue', 'arrears')),
  -- The household (household, hold, arrears) or the cashier (cash); none for the tenant's own.
  owner_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind IN ('online', 'revenue')) = (owner_id IS NULL)),
  UNIQUE NULLS NOT DISTINCT (tenant_id, kind, owner_id),
  -- Postings reference (tenant_id, id, kind): the kind they copy cannot lie, nor the tenant.
  UNIQUE (tenant_id, id, kind)
);

-- One row per transaction. The client makes the idempotency key and sends it again on retries;
-- request_hash is a digest of the rest of the request, so the same key with a different request
-- is refused instead of posted (LedgerService). Amounts are positive: a settle of nothing is a void.
CREATE TABLE billing_txn (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 128),
  request_hash text NOT NULL,
  kind text NOT NULL
    CHECK (kind IN ('recharge', 'refund', 'hold', 'settle', 'void', 'consumption', 'reversal')),
  amount_fen bigint NOT NULL CHECK (amount_fen > 0),
  household_id bigint,
  card_id bigint,
  controller_id bigint,
  session_id bigint,
  cashier_id bigint,
  method text CHECK (method IN ('cash', 'online')),
  external_ref text CHECK (length(external_ref) <= 128),
  -- The hold a settle or void ends, and the transaction a reversal mirrors.
  hold_txn_id bigint,
  reverses_txn_id bigint,
  memo text CHECK (length(memo) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The entity kit's audit columns (the transaction list is a read-only entity): never updated.
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CHECK ((kind = 'recharge') = (method IS NOT NULL)),
  CHECK (method IS DISTINCT FROM 'online' OR external_ref IS NOT NULL),
  CHECK ((kind IN ('settle', 'void')) = (hold_txn_id IS NOT NULL)),
  CHECK ((kind = 'reversal') = (reverses_txn_id IS NOT NULL)),
  CHECK (kind = 'reversal' OR household_id IS NOT NULL),
  UNIQUE (tenant_id, idempotency_key),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, hold_txn_id) REFERENCES billing_txn (tenant_id, id),
  FOREIGN KEY (tenant_id, reverses_txn_id) REFERENCES billing_txn (tenant_id, id)
);

-- A hold ends once (settled or voided), a transaction is reversed once: the database holds it
-- even if two requests pass the service's checks together.
CREATE UNIQUE INDEX billing_txn_hold_ended ON billing_txn (tenant_id, hold_txn_id)
  WHERE hold_txn_id IS NOT NULL;
CREATE UNIQUE INDEX billing_txn_reversed ON billing_txn (tenant_id, reverses_txn_id)
  WHERE reverses_txn_id IS NOT NULL;
-- Statistics and lists by period (revenue, recharge records, the daily cash report).
CREATE INDEX billing_txn_period ON billing_txn (tenant_id, created_at, kind)
  INCLUDE (amount_fen, household_id, cashier_id);
-- A household's transactions, newest first.
CREATE INDEX billing_txn_household ON billing_txn (tenant_id, household_id, created_at);

-- One side of one account in one transaction. account_kind is the account's, copied so the checks
-- below can say which postings carry a balance. account_seq numbers a household or hold account's
-- postings 1, 2, 3...: two writers that both read the same last posting collide on the unique
-- index instead of both building on it, even if one forgot the account lock.
CREATE TABLE billing_posting (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  txn_id bigint NOT NULL,
  account_id bigint NOT NULL,
  account_kind text NOT NULL,
  debit_fen bigint NOT NULL DEFAULT 0 CHECK (debit_fen >= 0),
  credit_fen bigint NOT NULL DEFAULT 0 CHECK (credit_fen >= 0),
  account_seq bigint CHECK (account_seq > 0),
  balance_after_fen bigint CHECK (balance_after_fen >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Exactly one side, and more than nothing.
  CHECK ((debit_fen > 0) <> (credit_fen > 0)),
  -- Household and hold postings carry their account's balance after them (never negative); the
  -- others carry none.
  CHECK ((account_kind IN ('household', 'hold')) = (balance_after_fen IS NOT NULL)),
  CHECK ((account_kind IN ('household', 'hold')) = (account_seq IS NOT NULL)),
  FOREIGN KEY (tenant_id, txn_id) REFERENCES billing_txn (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, account_id, account_kind)
    REFERENCES billing_account (tenant_id, id, kind) ON DELETE CASCADE
);

-- A household's balance: its account's last posting, one index entry (index-only with the
-- balance included).
CREATE UNIQUE INDEX billing_posting_account_seq ON billing_posting (account_id, account_seq)
  INCLUDE (balance_after_fen) WHERE account_seq IS NOT NULL;
CREATE INDEX billing_posting_txn ON billing_posting (txn_id);
CREATE INDEX billing_posting_account ON billing_posting (account_id);

-- Append-only: UPDATE, DELETE and TRUNCATE are refused, whoever asks (the schema owner too).
-- The one exception is a tenant's own removal: its rows go with it by the tenant foreign keys'
-- cascade, which deletes them after the tenant row is gone.
CREATE FUNCTION billing_ledger_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM tenant WHERE id = OLD.tenant_id) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'the billing ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'raise_exception', HINT = 'post a reversal instead';
END $$;

CREATE TRIGGER billing_txn_append_only BEFORE UPDATE OR DELETE ON billing_txn
  FOR EACH ROW EXECUTE FUNCTION billing_ledger_append_only();
CREATE TRIGGER billing_posting_append_only BEFORE UPDATE OR DELETE ON billing_posting
  FOR EACH ROW EXECUTE FUNCTION billing_ledger_append_only();
CREATE TRIGGER billing_txn_no_truncate BEFORE TRUNCATE ON billing_txn
  FOR EACH STATEMENT EXECUTE FUNCTION billing_ledger_append_only();
CREATE TRIGGER billing_posting_no_truncate BEFORE TRUNCATE ON billing_posting
  FOR EACH STATEMENT EXECUTE FUNCTION billing_ledger_append_only();

-- Every transaction balances: checked when its transaction commits (postings are inserted one
-- by one), so a transaction whose postings do not add up never becomes visible.
CREATE FUNCTION billing_txn_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  debits bigint;
  credits bigint;
BEGIN
  SELECT coalesce(sum(debit_fen), 0), coalesce(sum(credit_fen), 0) INTO debits, credits
    FROM billing_posting WHERE txn_id = NEW.id;
  IF debits <> credits OR debits = 0 THEN
    RAISE EXCEPTION 'billing transaction % does not balance (debits %, credits %)',
      NEW.id, debits, credits USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER billing_txn_balanced AFTER INSERT ON billing_txn
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION billing_txn_balanced();
