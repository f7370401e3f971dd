import { PRODUCTS } from '@shuili/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker } from './test-broker';
import { startLightSimulation } from './light-simulation';

let brokerUrl = '';
let close: () => Promise<void> = async () => undefined;
const tenant = `siml${Math.floor(Math.random() * 1e9)}`;

beforeAll(async () => {
  ({ url: brokerUrl, close } = await startTestBroker());
});

afterAll(() => close());

describe('startLightSimulation', () => {
  it('runs a few devices of every kind that come online and report', async () => {
    // Four demo devices per product: the light simulation takes three of each kind.
    const devices = PRODUCTS.flatMap((product) =>
      [1, 2, 3, 4].map((n) => ({
        identity: `${tenant}:${product.serialNo}-0${n}`,
        secret: 'x',
        kind: product.kind,
        thingModel: product.thingModel,
      })),
    );
    const observer = await mqtt.connectAsync(brokerUrl, { clientId: `obs-${tenant}` });
    const reporting = new Set<string>();
    const online = new Set<string>();
    observer.on('message', (topic, payload) => {
      const deviceNo = topic.split('/')[3]!;
      if (topic.endsWith('/telemetry')) reporting.add(deviceNo);
      if (topic.endsWith('/status') && payload.length > 0) {
        if ((JSON.parse(payload.toString()) as { online: boolean }).online) online.add(deviceNo);
      }
    });
    await observer.subscribeAsync(`t/${tenant}/d/+/+`, { qos: 1 });

    // A fast rate so every device reports within a moment.
    const simulation = await startLightSimulation({ brokerUrl, devices, rate: 200 });
    expect(simulation.devices).toHaveLength(PRODUCTS.length * 3);
    expect(simulation.devices.some((d) => d.identity.endsWith('-04'))).toBe(false);
    const deadline = Date.now() + 45_000;
    while (reporting.size < simulation.devices.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reporting.size).toBe(simulation.devices.length);
    expect(online.size).toBe(simulation.devices.length);
    expect(simulation.stats.acked).toBeGreaterThanOrEqual(simulation.devices.length);

    await simulation.stop();
    expect(simulation.stats.connected).toBe(0);
    for (const device of simulation.devices)
      await observer.publishAsync(`t/${tenant}/d/${device.deviceNo}/status`, '', { retain: true });
    await observer.endAsync();
  });
});
