/**
 * The part of the device transport (mqtt/device-transport.ts) commands and alarms use: down to
 * one device, and live pushes to signed-in browsers.
 */
export interface ControlTransport {
  /** Given the device's id, never to a connection of an ended identity of the same number. */
  publishToDevice(
    tenantCode: string,
    deviceNo: string,
    payload: Buffer,
    qos: 0 | 1,
    deviceId?: string,
  ): Promise<void>;
  publishLive(topic: string, payload: Buffer): Promise<void> | void;
}
