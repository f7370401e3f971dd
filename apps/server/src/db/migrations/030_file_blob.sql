-- Uploaded files kept in the database (FILE_STORAGE=database, the default on PostgreSQL), so
-- that every node behind a load balancer serves the files any node stored (a node's disk is its
-- own). No tenant_id, like outbox_attachment: only the system connection reads or writes them,
-- and a file is reached only by its key, held in a tenant's row (iot_device_file, trace_photo,
-- ...) read under that tenant's row-level security first. The keys are 128 random bits.
--
-- A file is a header and its bytes in chunks of 256 KiB, so that no file is ever one value (a
-- bytea is read and written whole) and reading streams one chunk at a time. `size` stays NULL
-- while the chunks are being written: such a file is not served, and one whose writer died is
-- swept a day later (the partial index finds them).
CREATE TABLE file_blob (
  key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{2}/[0-9a-f]{32}$'),
  content_type text NOT NULL CHECK (length(content_type) <= 255),
  size bigint CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX file_blob_unfinished ON file_blob (created_at) WHERE size IS NULL;

CREATE TABLE file_chunk (
  key text NOT NULL REFERENCES file_blob(key) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (key, seq)
);
