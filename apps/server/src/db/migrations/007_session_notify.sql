-- Nodes keep the state of live sessions for a few seconds instead of reading it on every
-- request; any change that can end a session (revocation, a shorter end, deletion with its user
-- or tenant) is announced on the channel `shuili_session` with the session id, whatever code or
-- node made it, so every node forgets it at once (notifications go out when the change commits).
CREATE FUNCTION shuili_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shuili_session', OLD.id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER user_session_ended AFTER UPDATE ON user_session FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION shuili_session_changed();

CREATE TRIGGER user_session_deleted AFTER DELETE ON user_session FOR EACH ROW
  EXECUTE FUNCTION shuili_session_changed();
