-- Files sent with an outbox e-mail (a scheduled data report, issue 22): the development
-- provider keeps them beside their message, as a mailbox would have received them. No
-- tenant_id: like outbox_message, only the system connection reads or writes them.
CREATE TABLE outbox_attachment (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id bigint NOT NULL REFERENCES outbox_message(id) ON DELETE CASCADE,
  filename text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_attachment_message ON outbox_attachment (message_id);
