import { afterAll, describe, expect, it } from 'vitest';
import { mosquittoAvailable } from '@shuili/test-support/mosquitto-peer';
import { TEST_DATABASE_URL } from '@shuili/test-support/test-server';
import { ExternalConsumers } from '../security/faults/external-consumers';
import { killHard, waitFor } from '../security/faults/process-kill';

const available = (await mosquittoAvailable()) && TEST_DATABASE_URL !== undefined;

/**
 * A node consuming from an external broker with a window of messages in flight is killed (-9)
 * while it stores: what it had in hand was not acknowledged to the broker, which keeps it in the
 * node's persistent session and sends it again when the node is back. Every reading the broker
 * acknowledged to a device ends up stored. PostgreSQL only: it is read while the node runs.
 */
describe.skipIf(!available)('external broker: kill -9 of a consuming node', () => {
  let field: ExternalConsumers | undefined;
  afterAll(() => field?.close());

  it('every reading the broker acknowledged is stored after the node restarts', async () => {
    field = await ExternalConsumers.start({ database: 'postgres', devices: 8, group: 'kill' });
    const env = { MQTT_CONSUMERS: '1', MQTT_CONSUMER_WINDOW: '100' };
    const server = await field.startNode('kill', { env });

    const load = field.devicesPublishing({ window: 8 });
    await load.run();
    await waitFor('readings to flow', () => load.acknowledged.size >= 300);
    // A random moment mid-stream: the node has a window of readings in hand, some being stored.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
    await killHard(server.pid);
    const acknowledgedAtKill = load.acknowledged.size;
    // The broker goes on taking readings for the dead node's session.
    await waitFor(
      'readings while the node is dead',
      () => load.acknowledged.size >= acknowledgedAtKill + 100,
    );

    // Back under its id, to the queue its session kept: it subscribes as it drains it.
    await field.startNode('kill', { env, awaitSubscribed: false });
    const counts = await field.ledgerOnceStored(load, 60_000);
    console.log(`external node kill -9: ${JSON.stringify({ ...counts, acknowledgedAtKill })}`);
    expect(counts.acknowledged).toBeGreaterThan(acknowledgedAtKill);
    expect(counts.firstLost).toEqual([]);
    expect(counts.lost).toBe(0);
  }, 180_000);
});
