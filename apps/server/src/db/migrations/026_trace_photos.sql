-- Photos of traceability bases and growth records (docs/traceability.md "Photos"): the bytes are
-- in the file storage (modules/files), the key here is never sent out. One row per photo, of a
-- base or of a growth record (exactly one); removed with its owner (the bytes go with the row's
-- delete call, or stay as orphans of a deleted owner until the storage is swept).
-- (The older `photos` jsonb columns of trace_base and trace_growth_record stay unused.)
CREATE TABLE trace_photo (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  base_id bigint,
  growth_record_id bigint,
  file_name text NOT NULL CHECK (length(file_name) <= 255),
  content_type text NOT NULL CHECK (content_type LIKE 'image/%'),
  size_kb integer NOT NULL CHECK (size_kb >= 0),
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  CONSTRAINT trace_photo_owner_check CHECK (num_nonnulls(base_id, growth_record_id) = 1),
  CONSTRAINT trace_photo_base_id_fk FOREIGN KEY (tenant_id, base_id)
    REFERENCES trace_base (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT trace_photo_growth_record_id_fk FOREIGN KEY (tenant_id, growth_record_id)
    REFERENCES trace_growth_record (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX trace_photo_base_id_idx ON trace_photo (base_id) WHERE base_id IS NOT NULL;
CREATE INDEX trace_photo_growth_record_id_idx ON trace_photo (growth_record_id)
  WHERE growth_record_id IS NOT NULL;

-- The public page's logo may be an uploaded image kept inline (data:image/…;base64, at most
-- 16 KB of image: the page shows it at 32 px), so the column takes more than a path.
ALTER TABLE trace_page_setting DROP CONSTRAINT trace_page_setting_logo_check;
ALTER TABLE trace_page_setting ADD CONSTRAINT trace_page_setting_logo_check
  CHECK (length(logo) <= 24000);
