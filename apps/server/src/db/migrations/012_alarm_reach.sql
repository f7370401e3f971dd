-- Alarms that reach people (issue 17).
--
-- Bell entries in the reader's language only: a notice may carry its title and content in every
-- interface language (`{"en": ..., "zh": ..., "tw": ...}`); readers get theirs, and `title` /
-- `content` stay the text of those who write one language (the publishing screen) and the
-- fallback. `alarm_id` ties an alarm's notice to its record (no foreign key: iot_alarm_record is
-- an entity table, created after the migrations), so the bell counts the notices of alarms not
-- yet acknowledged, under the reader's device scope.
ALTER TABLE notification ADD COLUMN title_i18n jsonb;
ALTER TABLE notification ADD COLUMN content_i18n jsonb;
ALTER TABLE notification ADD COLUMN alarm_id bigint;
CREATE INDEX notification_alarm ON notification (alarm_id) WHERE alarm_id IS NOT NULL;

-- A user's own settings of the console kept on the server (they follow the user to any browser):
-- the lowest alarm level that pops up at once (`off`: none; no row: every level).
CREATE TABLE sys_user_preference (
  user_id bigint PRIMARY KEY REFERENCES sys_user(id) ON DELETE CASCADE,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  alarm_popup_level text NOT NULL DEFAULT 'blue'
    CHECK (alarm_popup_level IN ('blue', 'yellow', 'orange', 'red', 'off')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
