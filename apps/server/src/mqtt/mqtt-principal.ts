/** Who is at the other end of an MQTT connection, once authenticated. */
export type MqttPrincipal =
  | { kind: 'device'; tenantCode: string; deviceNo: string }
  | { kind: 'browser'; tenantCode: string; tenantId: string; userId: string; sessionId: string }
  /** The server itself (external mode: its relay into the browsers' broker). */
  | { kind: 'server' };
