// One signed-in console tab's live connection in the load benchmark: MQTT over WebSocket with the
// console's options (iot-server.ts browserOptions), the tenant's live topics the device screens
// subscribe (presence, alarms, commands) and the user's bell, plus the shown device's own topics
// while its page is open (use-device-live.ts), as apps/web/src/core/live/live-connection.ts does.
import {
  deviceTopic,
  FINAL_COMMAND_STATUSES,
  liveTopics,
  type CommandStatus,
} from '@shuili/contract';
import mqtt from 'mqtt';
import { browserOptions } from '@shuili/test-support/iot-server';
import { sentAtOf } from './counting-subscriber';

/** What every tab's live copies add up to (shared by all browsers of a run). */
export interface LiveCopies {
  /** Delays (ms) from a device's publish to a tab's receipt, while measuring. */
  delays: number[];
  measuring: boolean;
  received: number;
  connectionsLost: number;
}

export interface CommandOutcome {
  status: CommandStatus | 'no answer';
  /** From the send to the final status pushed on the commands topic. */
  ms: number;
}

const REMEMBERED_COMMANDS = 500;

export async function connectBrowser(options: {
  wsUrl: string;
  token: string;
  tenantCode: string;
  username: string;
  userId: string;
  copies: LiveCopies;
}) {
  const { tenantCode, copies } = options;
  const client = await mqtt.connectAsync(
    options.wsUrl,
    browserOptions(options.token, tenantCode, options.username),
  );
  let closedByUs = false;
  client.on('close', () => {
    if (!closedByUs) copies.connectionsLost += 1;
  });
  const commandsTopic = liveTopics.commands(tenantCode);
  // Command pushes come one level per device under the commands filter.
  const commandPushPrefix = commandsTopic.slice(0, -'+'.length);
  // Final statuses as pushed (an answer can arrive before the send's HTTP answer names its id).
  const finished = new Map<string, { status: CommandStatus; at: number }>();
  const waiting = new Map<string, (status: CommandStatus) => void>();
  client.on('message', (topic, payload) => {
    if (topic.endsWith('/telemetry')) {
      copies.received += 1;
      if (copies.measuring) copies.delays.push(Date.now() - sentAtOf(payload));
    } else if (topic.startsWith(commandPushPrefix)) {
      const push = JSON.parse(payload.toString('utf8')) as { id: string; status: CommandStatus };
      if (!FINAL_COMMAND_STATUSES.includes(push.status)) return;
      finished.set(push.id, { status: push.status, at: Date.now() });
      if (finished.size > REMEMBERED_COMMANDS) finished.delete(finished.keys().next().value!);
      waiting.get(push.id)?.(push.status);
    }
  });
  await client.subscribeAsync(
    [
      liveTopics.presence(tenantCode),
      liveTopics.alarms(tenantCode),
      commandsTopic,
      liveTopics.userNotify(tenantCode, options.userId),
    ],
    { qos: 0 },
  );
  let shown: string[] = [];
  return {
    /** Opens a device's page (its telemetry, command answers and status), or leaves it. */
    async showDevice(deviceNo: string | undefined) {
      const topics = deviceNo
        ? (['telemetry', 'cmd/ack', 'status'] as const).map((channel) =>
            deviceTopic(tenantCode, deviceNo, channel),
          )
        : [];
      if (topics.join() === shown.join()) return;
      if (shown.length) await client.unsubscribeAsync(shown);
      shown = topics;
      if (topics.length) await client.subscribeAsync(topics, { qos: 0 });
    },
    /** Waits for a sent command's final status on the commands topic (the page's live update). */
    awaitCommand(id: string, sentAt: number, timeoutMs: number): Promise<CommandOutcome> {
      const done = finished.get(id);
      if (done) return Promise.resolve({ status: done.status, ms: done.at - sentAt });
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve({ status: 'no answer', ms: Date.now() - sentAt });
        }, timeoutMs);
        waiting.set(id, (status) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve({ status, ms: Date.now() - sentAt });
        });
      });
    },
    async close() {
      closedByUs = true;
      await client.endAsync(true);
    },
  };
}

export type LoadBrowser = Awaited<ReturnType<typeof connectBrowser>>;
