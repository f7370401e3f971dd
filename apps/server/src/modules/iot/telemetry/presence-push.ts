import { devicePushTopic, type PresencePush } from '@shuili/contract';
import type { ControlTransport } from '../command/control-transport';
import type { IngestListener } from './ingest-listener';

/**
 * Tells browsers when a device comes online or goes offline (liveTopics.presence), after the
 * change is stored: screens that count devices by state (the workbench, the area lists) read
 * again or patch their rows, instead of subscribing to every device's own status topic (whose
 * retained messages, one per device, would all arrive at each subscription).
 */
export function presencePush(
  transport: Pick<ControlTransport, 'publishLive'>,
  log: { warn(object: object, message: string): void },
): IngestListener {
  return {
    async onPresence({ device, online, at }) {
      const push: PresencePush = {
        deviceId: device.deviceId,
        deviceNo: device.deviceNo,
        online,
        at: at.toISOString(),
      };
      try {
        await transport.publishLive(
          devicePushTopic(device.tenantCode, 'presence', device.deviceNo),
          Buffer.from(JSON.stringify(push)),
        );
      } catch (error) {
        // A missed push only delays a screen (it reads again later); presence stays stored.
        log.warn({ err: error }, 'presence push failed');
      }
    },
  };
}
