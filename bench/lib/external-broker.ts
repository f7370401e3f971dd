import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchMosquitto, MOSQUITTO } from '@shuili/test-support/mosquitto-peer';
import { onFreePorts } from '@shuili/test-support/server-process';

export interface ExternalBroker {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Debian's Mosquitto as the nodes' external broker (MQTT_URL), on a free loopback port and not
 * pinned: in a deployment it has a machine of its own. The relaying peer's settings (anonymous,
 * no persistence, no limit on queued or in-flight QoS 1 messages), so the two carry the same
 * load alike. The durable settings of docs/iot.md (`autosave_on_changes`) write the persistence
 * file after every message and would measure the disk, not the nodes.
 */
export function startExternalBroker(): Promise<ExternalBroker> {
  return onFreePorts(1, async ([port]) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-bench-broker-'));
    const conf = path.join(dir, 'mosquitto.conf');
    await fs.writeFile(
      conf,
      [
        `listener ${port!} 127.0.0.1`,
        'allow_anonymous true',
        'persistence false',
        'max_queued_messages 0',
        'max_inflight_messages 0',
        'log_type error',
      ].join('\n') + '\n',
    );
    const url = `mqtt://127.0.0.1:${port!}`;
    const child = await launchMosquitto(conf, url, (args, options) =>
      spawn(MOSQUITTO, args, options),
    ).catch(async (error: unknown) => {
      await fs.rm(dir, { recursive: true, force: true });
      throw error;
    });
    return {
      url,
      pid: child.pid!,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  });
}
