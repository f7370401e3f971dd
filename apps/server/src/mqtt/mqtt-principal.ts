import type { LiveFilter } from './browser-access';

/** Who is at the other end of an MQTT connection, once authenticated. */
export type MqttPrincipal =
  | {
      kind: 'device';
      tenantCode: string;
      deviceNo: string;
      /** The device and secret it authenticated with (absent where only the identity is known). */
      deviceId?: string;
      credentialId?: string;
    }
  | {
      kind: 'browser';
      tenantCode: string;
      tenantId: string;
      userId: string;
      sessionId: string;
      /**
       * What it may receive now (its grants and zones); replaced when an access change is
       * announced (MqttBroker). Absent: nothing of the tenant's devices.
       */
      live?: LiveFilter;
    }
  /** The server itself (external mode: its relay into the browsers' broker). */
  | { kind: 'server' };
