-- One-time password-reset links (spec §7 retrievePassword with email and charCaptcha, issue 16):
-- only a hash of the link's token is kept, so the table alone opens no account. A link works
-- once (used_at), until expires_at (30 minutes). Read and written by system transactions only
-- (nobody is signed in); with its tenant_id the table gets the tenant policy like every other.
CREATE TABLE password_reset_link (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES sys_user(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_reset_link_user ON password_reset_link (user_id);
