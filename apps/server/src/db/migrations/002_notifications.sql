-- Notifications (spec §3: title, content, type notice or message, priority, publisher, period,
-- publish object) and who has read them. Publishing screens arrive with the admin issue; the
-- bell and "my notifications" read these tables.

CREATE TABLE notification (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  title text NOT NULL,
  content text NOT NULL,
  -- 'notification' (a notice to many) or 'message' (to someone in particular).
  type text NOT NULL CHECK (type IN ('notification', 'message')),
  priority text NOT NULL DEFAULT 'normal',
  publisher_id bigint REFERENCES sys_user(id) ON DELETE SET NULL,
  -- Who receives it: everyone, or the listed roles, organisations or users.
  publish_scope text NOT NULL DEFAULT 'all' CHECK (publish_scope IN ('all', 'roles', 'orgs', 'users')),
  publish_targets bigint[] NOT NULL DEFAULT '{}',
  start_time timestamptz,
  end_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_tenant_created ON notification (tenant_id, created_at DESC);

CREATE TABLE notification_read (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  notification_id bigint NOT NULL REFERENCES notification(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES sys_user(id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, notification_id)
);
