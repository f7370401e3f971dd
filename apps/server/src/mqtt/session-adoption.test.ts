import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { brokerHealth } from '@shuili/test-support/broker-health';
import { mosquittoAvailable } from '@shuili/test-support/mosquitto-peer';
import { TEST_DATABASE_URL } from '@shuili/test-support/test-server';
import { ExternalConsumers } from '../security/faults/external-consumers';
import { killHard, waitFor } from '../security/faults/process-kill';

const available = (await mosquittoAvailable()) && TEST_DATABASE_URL !== undefined;

/**
 * Two nodes share the uplinks through a private Mosquitto. One is killed (-9) and stays dead:
 * Mosquitto goes on giving its persistent sessions their turn of the readings, and the other
 * node, seeing it lost in the registry, consumes those sessions (session-adoption.ts), so every
 * reading the broker acknowledged is stored without the dead node. When it comes back it takes its
 * sessions back and the readings keep being stored.
 */
describe.skipIf(!available)('external broker: a lost node’s sessions are adopted', () => {
  let field: ExternalConsumers | undefined;
  afterAll(() => field?.close());

  it('the other node stores the dead node’s share, and lets go when it returns', async () => {
    field = await ExternalConsumers.start({ database: 'postgres', devices: 8, group: 'adopt' });
    const env = { MQTT_CONSUMERS: '1' };
    const stays = await field.startNode('stays', { env });
    const dies = await field.startNode('dies', { env });

    const load = field.devicesPublishing({ window: 4, intervalMs: 50 });
    await load.run();
    await waitFor('readings to flow', () => load.acknowledged.size >= 100);
    await killHard(dies.pid);
    const acknowledgedAtKill = load.acknowledged.size;
    // Half of these fall to the dead node's session.
    await waitFor(
      'readings after the kill',
      () => load.acknowledged.size >= acknowledgedAtKill + 200,
    );
    // Stored without the dead node: the node that stays took its session over.
    const counts = await field.ledgerOnceStored(load, 120_000);
    console.log(`adoption: ${JSON.stringify({ ...counts, acknowledgedAtKill })}`);
    expect(counts.lost).toBe(0);
    // Its health says so: its own session and the dead node's, with what both stored.
    const adopting = await brokerHealth(stays.url);
    expect(adopting).toMatchObject({ state: 'up', consumers: 1, adoptedSessions: 1 });
    expect(adopting!.uplinksStored).toBeGreaterThan(0);
    // Adopted when the broker published the dead node's will, not 20 s later by the registry.
    expect(stays.output()).toContain('its will: the broker lost it');

    // The dead node comes back under its id: its sessions are its own again, and nothing is lost.
    const back = await field.startNode('dies', { env });
    const again = field.devicesPublishing({ window: 4, intervalMs: 50 });
    await again.run();
    await waitFor('readings after the return', () => again.acknowledged.size >= 200);
    const afterReturn = await field.ledgerOnceStored(again, 120_000);
    expect(afterReturn.firstLost).toEqual([]);
    expect(await brokerHealth(back.url)).toMatchObject({ state: 'up', adoptedSessions: 0 });
    // The adopter let go once the owner took its session back.
    await waitFor(
      'the adopter to let go',
      async () => (await brokerHealth(stays.url))?.adoptedSessions === 0,
    );
    expect(await retainedNodeStates()).toEqual({
      [`dies-${field.run}`]: 'up',
      [`stays-${field.run}`]: 'up',
    });

    // A node stopped gracefully says goodbye: no will, no state left, nobody adopts it.
    await back.stop();
    expect(await retainedNodeStates()).toEqual({ [`stays-${field.run}`]: 'up' });
  }, 300_000);

  /** The nodes' states the broker retains (topic shuili/nodes/<MQTT_NODE_ID>). */
  async function retainedNodeStates(): Promise<Record<string, string>> {
    const reader = await connectAsync(field!.broker.url, { reconnectPeriod: 0, clean: true });
    const states: Record<string, string> = {};
    reader.on('message', (topic, payload, packet) => {
      if (packet.retain && payload.length > 0)
        states[topic.split('/')[2]!] = (JSON.parse(payload.toString()) as { state: string }).state;
    });
    await reader.subscribeAsync('shuili/nodes/+', { qos: 1 });
    // Mosquitto sends what it retains right after its SUBACK; a round trip later it has all come.
    await reader.publishAsync('shuili/test/ping', '', { qos: 1 });
    await reader.endAsync();
    return states;
  }
});
