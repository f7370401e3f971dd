/** Counters shared by the devices of one simulation, printed by the CLI every 10 s. */
export interface SimStats {
  /** Devices connected right now. */
  connected: number;
  /** Telemetry messages published. */
  sent: number;
  /** Telemetry messages the broker acknowledged (QoS 1 PUBACK). */
  acked: number;
  /** Commands answered with an ack (ok or refused). */
  commandsAnswered: number;
  /** Connection and publish errors. */
  errors: number;
  /** Simulated outages so far. */
  outages: number;
  /** Photos uploaded (insect traps' trays). */
  photos: number;
}

export function createSimStats(): SimStats {
  return {
    connected: 0,
    sent: 0,
    acked: 0,
    commandsAnswered: 0,
    errors: 0,
    outages: 0,
    photos: 0,
  };
}

export function formatSimStats(stats: SimStats, devices: number): string {
  return (
    `connected ${stats.connected}/${devices}  sent ${stats.sent}  acked ${stats.acked}  ` +
    `commands answered ${stats.commandsAnswered}  photos ${stats.photos}  outages ${stats.outages}  ` +
    `errors ${stats.errors}`
  );
}
