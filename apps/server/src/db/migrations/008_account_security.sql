-- Account security (issue 7 part 7): the tenant's second-factor policy and each user's TOTP.

-- 'optional': users may turn on a TOTP second factor from their profile; 'required': every user
-- of the tenant must. The platform tenant's administrators always must, whatever it says.
ALTER TABLE tenant ADD COLUMN IF NOT EXISTS mfa_policy text NOT NULL DEFAULT 'optional';
ALTER TABLE tenant ADD CONSTRAINT tenant_mfa_policy CHECK (mfa_policy IN ('optional', 'required'));

-- A user's TOTP secret (encrypted with a server key, never returned once confirmed), the last
-- time step accepted (a code is never accepted twice) and the hashes of unused recovery codes.
-- confirmed_at is null while an enrolment waits for its first code.
CREATE TABLE user_totp (
  user_id bigint PRIMARY KEY REFERENCES sys_user(id) ON DELETE CASCADE,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  secret_box text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  recovery_hashes text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
