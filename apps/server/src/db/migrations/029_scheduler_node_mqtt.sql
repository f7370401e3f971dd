-- With an external broker (MQTT_URL) each node consumes under client ids of its own,
-- shuili-{mqtt_node_id}-work{0..mqtt_consumers-1}, on persistent sessions: Mosquitto gives a lost
-- node's sessions their turn of the shared messages until it returns. A node that sees a peer
-- lost (its heartbeat older than the registry's limit) takes those sessions over meanwhile and
-- lets them go when the peer connects again (mqtt/session-adoption.ts). NULL: embedded broker.
ALTER TABLE scheduler_node ADD COLUMN mqtt_node_id text;
ALTER TABLE scheduler_node ADD COLUMN mqtt_consumers integer NOT NULL DEFAULT 0;
