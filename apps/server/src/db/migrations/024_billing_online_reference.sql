-- One online payment is one recharge (issue 20 item 4, DESIGN §7): the idempotency key guards a
-- request's retries, not a payment sent again under another key (a client that lost its key, a
-- second desk, parallel retries), which credited the household once per key. The payment's
-- reference is unique among a tenant's online recharges, and stays taken after a reversal (the
-- reversal row carries no reference). modules/billing/ledger/ledger.service.ts answers the
-- conflict as a 409 naming externalRef.
CREATE UNIQUE INDEX billing_txn_online_ref ON billing_txn (tenant_id, external_ref)
  WHERE kind = 'recharge' AND method = 'online';
