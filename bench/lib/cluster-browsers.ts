// Browsers per node on the multi-node rig: signed-in browsers' live connections through nginx
// (spread over the nodes), watching the tenant's telemetry, while devices publish to the rig's
// broker and the nodes store their readings and relay them to their browsers (external broker). The delay is from the
// device's publish to the browser's receipt, so it includes storing: what a console shows is
// stored. The same browsers at growing counts say how many one node holds at a given p99.
import { prepareDevices, telemetryPayloads } from '@shuili/test-support/ingest-data';
import { BENCH_TENANT, browserOptions } from '@shuili/test-support/iot-server';
import type { Rig } from '../../scripts/cluster/rig';
import { watchCpu } from './cluster-cpu';
import { countingSubscriber } from './counting-subscriber';
import { anonymousLoad, connectDevices, disconnectAll, publishStep } from './mqtt-load';
import { latencySummary } from './stats';

export interface BrowserPlan {
  devices: number;
  /** Messages a second from all devices together (three readings each). */
  perSecond: number;
  /** Browsers connected in each step. */
  browsers: number[];
  seconds: number;
  warmupSeconds: number;
}

/** The tenant's all-devices telemetry: every browser receives every message (realtime.ts). */
const FILTER = `t/${BENCH_TENANT}/d/+/telemetry`;

/**
 * On the rig with `running` nodes (the bench's devices replace the demo's, as in
 * e2e/cluster-devices.test.ts), one step per browser count.
 */
export async function measureBrowsers(
  rig: Rig,
  running: number,
  token: string,
  backends: () => Promise<number[]>,
  plan: BrowserPlan,
) {
  await prepareDevices({ kind: 'postgres', url: rig.databaseUrl }, plan.devices);
  // The rig's broker takes anyone (scripts/cluster/rig.ts); the topics name the bench devices.
  const load = anonymousLoad(plan.devices);
  const devices = await connectDevices(rig.mqttUrl, load);
  const wsUrl = `${rig.url.replace(/^http/, 'ws')}/mqtt`;
  const payloadOf = telemetryPayloads();
  const steps = [];
  try {
    for (const count of plan.browsers) {
      const browsers = [];
      let closed = 0;
      try {
        for (let i = 0; i < count; i += 1) {
          const browser = await countingSubscriber(wsUrl, FILTER, browserOptions(token), 0);
          browser.onClose(() => (closed += 1));
          browsers.push(browser);
        }
        const rate = { perSecond: plan.perSecond };
        await publishStep(devices, load, payloadOf, { ...rate, seconds: plan.warmupSeconds });
        const start = Date.now();
        for (const browser of browsers) browser.measureFrom(start);
        const stopCpu = await watchCpu({
          nodes: () =>
            rig.nodes.slice(0, running).map((node) => ({ name: node.name, pid: node.pid })),
          backends,
        });
        const step = await publishStep(devices, load, payloadOf, {
          ...rate,
          seconds: plan.seconds,
        });
        const cpu = await stopCpu();
        // The last readings may still be being stored and relayed.
        const settleUntil = Date.now() + 5000;
        while (browsers.some((b) => b.measured < step.acknowledged) && Date.now() < settleUntil)
          await new Promise((resolve) => setTimeout(resolve, 50));
        const all: number[] = [];
        let missed = 0;
        for (const browser of browsers) {
          missed += Math.max(0, step.acknowledged - browser.measured);
          for (const delay of browser.takeDelays().all) all.push(delay);
        }
        steps.push({
          nodes: running,
          browsers: count,
          acknowledged: step.acknowledged,
          deliveriesPerSecond: Math.round((step.acknowledged * count) / plan.seconds),
          delay: latencySummary(all),
          missed,
          browserConnectionsLost: closed,
          cpu,
        });
      } finally {
        await Promise.all(browsers.map((browser) => browser.close()));
      }
    }
  } finally {
    await disconnectAll(devices);
  }
  return { filter: FILTER, plan, steps };
}
