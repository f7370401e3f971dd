-- Tenancy, identity and sessions: the tables the walking skeleton signs in with.

CREATE TABLE tenant (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_code text NOT NULL UNIQUE,
  tenant_name text NOT NULL,
  -- The name in each console language: {"zh": ..., "tw": ..., "en": ...}.
  tenant_name_i18n jsonb NOT NULL DEFAULT '{}'::jsonb,
  domain text,
  start_time timestamptz,
  end_time timestamptz,
  contact text,
  email text,
  tel text,
  is_platform boolean NOT NULL DEFAULT false,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sys_org (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  org_name text NOT NULL,
  org_type text,
  org_description text,
  org_sequence integer NOT NULL DEFAULT 0,
  org_parent bigint REFERENCES sys_org(id) ON DELETE RESTRICT,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sys_org_tenant ON sys_org (tenant_id, org_sequence);

CREATE TABLE sys_user (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  username text NOT NULL,
  nickname text NOT NULL,
  password_hash text NOT NULL,
  email text,
  mobile text,
  status smallint NOT NULL DEFAULT 1,
  org_id bigint REFERENCES sys_org(id) ON DELETE SET NULL,
  avatar text,
  geographic text,
  address text,
  profile text,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sys_user_username ON sys_user (tenant_id, lower(username));
CREATE UNIQUE INDEX sys_user_email ON sys_user (tenant_id, lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX sys_user_mobile ON sys_user (tenant_id, mobile) WHERE mobile IS NOT NULL;
-- Sign-in looks a person up across tenants by username, email or mobile.
CREATE INDEX sys_user_login_username ON sys_user (lower(username));
CREATE INDEX sys_user_login_email ON sys_user (lower(email));
CREATE INDEX sys_user_login_mobile ON sys_user (mobile);

CREATE TABLE sys_role (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  role_code text NOT NULL,
  role_name text NOT NULL,
  role_description text,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, role_code)
);

CREATE TABLE sys_user_role (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES sys_user(id) ON DELETE CASCADE,
  role_id bigint NOT NULL REFERENCES sys_role(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);

CREATE TABLE sys_menu (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  menu_code text NOT NULL,
  -- A translation key of the web (route.*) for built-in menus, or a literal name.
  menu_name text NOT NULL,
  menu_icon text,
  menu_path text NOT NULL,
  menu_component text,
  menu_sequence integer NOT NULL DEFAULT 0,
  menu_parent bigint REFERENCES sys_menu(id) ON DELETE CASCADE,
  menu_status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, menu_code)
);

CREATE TABLE sys_menu_button (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  menu_id bigint NOT NULL REFERENCES sys_menu(id) ON DELETE CASCADE,
  button_code text NOT NULL,
  button_name text NOT NULL,
  UNIQUE (tenant_id, button_code)
);

CREATE TABLE sys_role_menu (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  role_id bigint NOT NULL REFERENCES sys_role(id) ON DELETE CASCADE,
  menu_id bigint NOT NULL REFERENCES sys_menu(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, menu_id)
);

CREATE TABLE sys_role_menu_button (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  role_id bigint NOT NULL REFERENCES sys_role(id) ON DELETE CASCADE,
  button_id bigint NOT NULL REFERENCES sys_menu_button(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, button_id)
);

-- OAuth clients are platform data: the `browser` client and, later, third-party apps.
CREATE TABLE oauth_client (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_id text NOT NULL UNIQUE,
  client_secret_hash text NOT NULL,
  authorized_grant_types text[] NOT NULL,
  scope text[] NOT NULL,
  access_token_validity integer NOT NULL,
  refresh_token_validity integer NOT NULL,
  web_server_redirect_uri text,
  first_party boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_session (
  id uuid PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES sys_user(id) ON DELETE CASCADE,
  client_id text NOT NULL,
  grant_type text NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text
);
CREATE INDEX user_session_user ON user_session (user_id) WHERE revoked_at IS NULL;

CREATE TABLE refresh_token (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES user_session(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX refresh_token_session ON refresh_token (session_id);

-- One-time codes sent by SMS or e-mail; only their keyed hash is kept.
CREATE TABLE captcha (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL,
  recipient text NOT NULL,
  code_hash text NOT NULL,
  ip text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  consumed_at timestamptz
);
CREATE INDEX captcha_recipient ON captcha (channel, recipient, created_at DESC);

-- Fixed-window counters and lock-outs shared by every node (login throttling, send limits).
CREATE TABLE rate_limit (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  window_start timestamptz NOT NULL,
  locked_until timestamptz
);

-- What the development SMS / e-mail provider "sent": read by developers and tests, never by the API.
CREATE TABLE outbox_message (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL,
  recipient text NOT NULL,
  subject text,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_message_recipient ON outbox_message (recipient, id DESC);

CREATE TABLE server_secret (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
