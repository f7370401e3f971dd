import { waitFor } from '@shuili/server/security/faults/process-kill';
import { ledger, storedReadings } from '@shuili/server/security/faults/stored-readings';
import { TrackedDevices } from '@shuili/server/security/faults/tracked-devices';
import type { BenchDevice } from '@shuili/test-support/ingest-data';
import type { Rig } from '../../scripts/cluster/rig';
import type { StoredReadings } from './devices-store';

/**
 * A field of devices publishing QoS 1 readings with ts to the rig's Mosquitto at a steady rate
 * (TrackedDevices: every PUBACK recorded), and what the rig's database stored of them.
 */
export class FieldLoad {
  readonly devices: TrackedDevices;
  /** Every reading of this load is stamped at or after this (TrackedDevices: start + sequence). */
  readonly since = Date.now();
  readonly rate: number;

  constructor(
    private readonly rig: Rig,
    devices: BenchDevice[],
    readonly stored: StoredReadings,
    intervalMs: number,
    private readonly log: (line: string) => void,
  ) {
    this.rate = (devices.length * 1000) / intervalMs;
    this.devices = new TrackedDevices(rig.mqttUrl, devices, {
      window: 4,
      intervalMs,
      reconnectPeriod: 1000,
      // MQTT 5: a PUBACK "no matching subscribers" (no consumer subscribed at that moment) means
      // not delivered; the device publishes that reading again (docs/iot.md).
      resendWithoutSubscribers: true,
    });
  }

  /**
   * Connects the devices and starts publishing, sampling what is stored; resolves once storing
   * keeps up (the nodes first meet devices they have not looked up yet), or after `warmUpMs`
   * anyway: a loaded machine is no failure of the rig.
   */
  async start(warmUpMs: number): Promise<void> {
    this.stored.startSampling(this.since);
    await this.devices.run();
    this.log(`${this.devices.connected} devices connected, publishing ${this.rate} readings/s`);
    await waitFor('storing to keep up with the load', () => this.keepsUp(), warmUpMs, 500).catch(
      () => this.log(`storing has not caught up after ${warmUpMs / 1000} s: going on`),
    );
    this.log(`steady after ${((Date.now() - this.since) / 1000).toFixed(1)} s`);
  }

  /** Less than a second of the load is acknowledged and not stored yet. */
  private async keepsUp(): Promise<boolean> {
    return (await this.stored.count(this.since)) >= this.devices.acknowledged.size - this.rate;
  }

  /** Stops publishing; resolves once every reading published is acknowledged by the broker. */
  async stop(): Promise<void> {
    this.devices.pause();
    await waitFor('every published reading to be acknowledged', () => this.devices.inFlight === 0);
    this.log(
      `load stopped: ${this.devices.published.size} published, ${this.devices.acknowledged.size} acknowledged`,
    );
  }

  /**
   * Waits (at most `timeoutMs`) until as many readings are stored as were acknowledged; answers
   * how long that took. Running out of time is not thrown: the ledger then says what is missing.
   */
  async drain(timeoutMs: number): Promise<number> {
    const from = Date.now();
    const acknowledged = this.devices.acknowledged.size;
    let last = -1;
    await waitFor(
      'the acknowledged readings to be stored',
      async () => {
        const now = await this.stored.count(this.since);
        if (now !== last) this.log(`stored ${now} of ${acknowledged}`);
        last = now;
        return now >= acknowledged;
      },
      timeoutMs,
      1000,
    ).catch((error: unknown) => this.log(String(error)));
    return Date.now() - from;
  }

  /**
   * Published, acknowledged, stored and lost (acknowledged, not stored) readings, and the rows
   * stored of this load (one per reading: ts is part of the key, a resend is not a second row).
   */
  async ledger() {
    const all = await storedReadings({ kind: 'postgres', url: this.rig.databaseUrl });
    return {
      ...ledger(this.devices.acknowledged, this.devices.published, all),
      storedOfLoad: await this.stored.count(this.since),
      withoutSubscribers: this.devices.withoutSubscribers,
      deviceDisconnects: this.devices.disconnects,
    };
  }

  async close(): Promise<void> {
    await this.stored.stopSampling();
    await this.devices.close();
  }
}
