-- The spec's own names (issue 16): spec §3 types a notification `notice` or `message`, so a
-- notice is stored as `notice` (it was `notification`). The bell keeps calling it a
-- notification, as spec §3's notification item does (notification.repo.ts).

ALTER TABLE notification DROP CONSTRAINT IF EXISTS notification_type_check;
UPDATE notification SET type = 'notice' WHERE type = 'notification';
ALTER TABLE notification ADD CONSTRAINT notification_type_check CHECK (type IN ('notice', 'message'));

-- The notification-type dictionary every tenant was given offers the stored value. Its table
-- comes from the entity declarations, after the migrations: a new database has none yet.
DO $$
BEGIN
  IF to_regclass('sys_dict') IS NOT NULL THEN
    UPDATE sys_dict SET dict_value = 'notice',
           dict_name = CASE WHEN dict_name = 'dict.notification_type.notification'
                            THEN 'dict.notification_type.notice' ELSE dict_name END
     WHERE dict_type = 'notification_type' AND dict_value = 'notification';
  END IF;
END $$;
