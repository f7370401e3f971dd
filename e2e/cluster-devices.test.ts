import { deviceTopic } from '@shuili/contract';
import { waitFor } from '@shuili/server/security/faults/process-kill';
import { brokerHealth } from '@shuili/test-support/broker-health';
import { prepareDevices, type BenchDevice } from '@shuili/test-support/ingest-data';
import { connectAsync } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rigUnavailable, startRig, type Rig, type RigNode } from '../scripts/cluster/rig';
import { openWatchingBrowser, shownValue, type WatchingBrowser } from './cluster/devices-browser';
import { FieldLoad } from './cluster/devices-load';
import { StoredReadings } from './cluster/devices-store';

/**
 * Devices and browsers on the three-node rig (issue 23 part 2): devices publish to the rig's
 * Mosquitto, the nodes' shared subscriptions split their readings, and a browser signed in
 * through nginx watches them; then a node dies (kill -9) under a field of 1,000 devices, once
 * coming back at once (its share of the readings waits in its sessions for it) and once left dead
 * until another node adopts its sessions (docs/iot.md "External broker durability").
 */
const unavailable = await rigUnavailable();

/** The field of the load test: 1,000 devices, one reading each every 500 ms, 2,000 readings/s. */
const DEVICES = 1000;
const INTERVAL_MS = 500;
/** At most this long for the nodes to catch up with the load before the timeline starts. */
const WARM_UP_MS = 60_000;
/** The timeline (ms after storing keeps up with the load). */
const KILL_AT_MS = 5_000;
const RESTART_AT_MS = 12_000;
const LOAD_MS = 20_000;
/**
 * Left dead, a node's share of the readings goes to its sessions, which another node adopts as
 * soon as the broker publishes its will: the load goes on this long after the kill.
 */
const LEFT_DEAD_LOAD_MS = 15_000;
/**
 * Storing what the broker queued may take a while (each node's consumers, and the killed node's
 * share waiting in its sessions until it is back): generous, but a test that never drains fails.
 */
const DRAIN_TIMEOUT_MS = 240_000;

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe.skipIf(unavailable !== undefined)(
  `devices and browsers across three nodes${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let rig: Rig;
    let devices: BenchDevice[];
    let stored: StoredReadings;
    const log = (line: string) => console.log(`[cluster-devices] ${line}`);

    beforeAll(async () => {
      rig = await startRig({
        nodes: 3,
        web: true,
        log,
        // The demo's card sessions are ledger entries (append-only): they would keep the demo's
        // wells, which prepareDevices replaces (the ingest benchmark seeds without them too).
        env: { DEMO_CARD_SESSIONS: 'false' },
      });
      // The bench product and its devices (ingest-data.ts), in place of the demo's: the same data
      // the ingest benchmark and the fault tests use, with one secret each.
      devices = await prepareDevices({ kind: 'postgres', url: rig.databaseUrl }, DEVICES);
      stored = await StoredReadings.open(rig.databaseUrl);
    }, 300_000);

    afterAll(async () => {
      await stored?.close();
      await rig?.stop();
    }, 120_000);

    describe('a browser through nginx', () => {
      let watching: WatchingBrowser;
      afterAll(() => watching?.close());

      it('shows live values whichever node stores them, and keeps them once its own node is killed', async () => {
        watching = await openWatchingBrowser(rig);
        const { page } = watching;
        const device = devices[0]!;
        const id = await stored.deviceId(device.deviceNo);
        expect(id, `device ${device.deviceNo}`).toBeDefined();
        await page.goto(`/iot/device/${id}`);
        await page.getByTestId('device-header').waitFor();

        const sensor = await connectAsync(rig.mqttUrl, {
          clientId: device.identity,
          username: device.identity,
          password: device.secret,
          reconnectPeriod: 0,
          clean: true,
        });
        const sent: number[] = [];
        /**
         * Publishes readings of `value` (each with its own ts, so each is a reading of its own)
         * until the page shows it: the page subscribes when it opens, and a message sent before
         * reaches nobody live (it is still stored).
         */
        const publishUntilShown = async (value: number) => {
          const publish = () => {
            const ts = Math.max(Date.now(), (sent.at(-1) ?? 0) + 1);
            sent.push(ts);
            void sensor.publishAsync(
              deviceTopic('demo', device.deviceNo, 'telemetry'),
              JSON.stringify({ ts, values: { waterLevel: value } }),
              { qos: 1 },
            );
          };
          publish();
          const timer = setInterval(publish, 700);
          try {
            await shownValue(page, 'waterLevel', `${value} m`).waitFor({ timeout: 30_000 });
          } finally {
            clearInterval(timer);
          }
        };
        const allStored = () =>
          waitFor(
            `readings of ${device.deviceNo} to be stored`,
            async () =>
              (await Promise.all(sent.map((ts) => stored.has(device.deviceNo, ts)))).every(Boolean),
            60_000,
            250,
          );

        try {
          // Each value goes to whichever consumer of the three nodes' share group Mosquitto
          // picks; the browser's node relays it from the broker all the same.
          const holder = watching.liveNode();
          expect(
            holder,
            `the node of the live connection (${watching.handshakes.join(' | ')})`,
          ).toBeDefined();
          for (const value of [11, 12, 13, 14, 15, 16]) await publishUntilShown(value);
          await allStored();
          const before = await Promise.all(rig.nodes.map((node) => brokerHealth(node.url)));
          log(`browser on ${holder!.name}; readings sent ${sent.length}, all stored`);

          // Its node dies: the live connection drops with it. The console does not reconnect by
          // itself (spec §1: no automatic reconnect); the user's click goes through nginx, which
          // skips the dead node.
          await holder!.kill();
          const reconnect = page.getByTestId('live-reconnect');
          await reconnect.waitFor();
          await reconnect.click();
          await reconnect.waitFor({ state: 'detached', timeout: 30_000 });
          const next = watching.liveNode();
          expect(next, watching.handshakes.join(' | ')).toBeDefined();
          expect(next!.name).not.toBe(holder!.name);
          for (const value of [21, 22, 23]) await publishUntilShown(value);
          // Mosquitto 2.0 keeps giving the dead node's sessions their turn of the readings: those
          // wait there until it is back (late, not lost), as a supervisor brings it back.
          await startReporting(holder!);
          await allStored();
          const after = await Promise.all(rig.nodes.map((node) => brokerHealth(node.url)));
          log(
            `after kill -9 of ${holder!.name}: browser on ${next!.name}; ${sent.length} readings sent and stored; ` +
              `health before ${JSON.stringify(before)} after ${JSON.stringify(after)}`,
          );
        } finally {
          await sensor.endAsync(true);
          // As a supervisor would: the node comes back, same port and consumer sessions.
          for (const node of rig.nodes) await node.start();
        }
      }, 240_000);
    });

    describe('kill -9 of one node under device load', () => {
      let load: FieldLoad | undefined;
      // The node left dead goes first: the one restarted at once comes back with its share waiting
      // in its sessions, the harder start, and a node that then stays down would leave the other
      // check with one node.
      afterEach(async () => {
        await load?.close();
        load = undefined;
        // A node a failed test left dead comes back for the next, as a supervisor would.
        for (const node of rig.nodes) await node.start().catch(() => {});
      });

      /** How often the nodes logged adopting the sessions of `victim` when the broker lost it. */
      const adoptionsOnWill = (victim: RigNode) =>
        rig.nodes
          .flatMap((node) => node.output().split('\n'))
          .filter(
            (line) =>
              line.includes('its will: the broker lost it') &&
              line.includes(`"peer":"${victim.mqttNodeId}"`),
          ).length;

      /** The field's load, then `victim` killed (-9) KILL_AT_MS after storing keeps up with it. */
      async function killUnderLoad(victim: RigNode) {
        const field = new FieldLoad(rig, devices, stored, INTERVAL_MS, log);
        load = field; // closed after the test, whatever happens
        await field.start(WARM_UP_MS);
        const t0 = Date.now();
        await sleepUntil(t0 + KILL_AT_MS);
        const killedAt = Date.now();
        await victim.kill();
        log(`${victim.name} killed`);
        return { field, t0, killedAt };
      }

      /**
       * Stops the load and waits until what the broker queued is stored: every reading the broker
       * acknowledged is stored, once (its ts is its key). `outage` describes the kill for the log,
       * given when the last reading was stored.
       */
      async function expectNoneLost(
        field: FieldLoad,
        title: string,
        outage: (drainedAt: number) => object,
      ) {
        await field.stop();
        const drainedAfterMs = await field.drain(DRAIN_TIMEOUT_MS);
        const drainedAt = Date.now();
        const counts = await field.ledger();
        console.log(
          `cluster kill -9, ${title}: ${JSON.stringify({
            devices: DEVICES,
            readingsPerSecond: field.rate,
            ...counts,
            outage: outage(drainedAt),
            drainedAfterMs,
          })}`,
        );
        expect(counts.acknowledged).toBe(counts.published);
        expect(counts.firstLost).toEqual([]);
        expect(counts.lost).toBe(0);
        expect(counts.storedOfLoad).toBe(counts.acknowledged);
      }

      it('left dead: the others adopt its sessions and store its share before it returns', async () => {
        const victim = rig.nodes[2]!;
        const adoptionsBefore = adoptionsOnWill(victim);
        const { field, killedAt } = await killUnderLoad(victim);
        // Its share of every reading since the kill goes to its sessions, which a live node adopts
        // when the broker publishes the victim's will (docs/iot.md "Consumer sessions"); then every
        // reading acknowledged must be stored while it is still dead: only an adopter can store
        // its share. (Keeping up in real time is not asked: on a machine shared with other tests
        // the two survivors may store slower than the load.)
        await sleepUntil(killedAt + LEFT_DEAD_LOAD_MS);
        await expectNoneLost(field, 'left dead', (caughtUpAt) => ({
          secondsUntilCaughtUp: ((caughtUpAt - killedAt) / 1000).toFixed(1),
          perSecond: stored.perSecond(killedAt, caughtUpAt).join(' '),
        }));
        expect(adoptionsOnWill(victim), 'a survivor adopted its sessions on its will').toBe(
          adoptionsBefore + 1,
        );
        // The survivors' health says who carries its sessions, and what each stored.
        const survivors = await Promise.all(
          rig.nodes.filter((node) => node !== victim).map((node) => brokerHealth(node.url)),
        );
        log(`survivors' brokers while ${victim.name} is dead: ${JSON.stringify(survivors)}`);
        expect(
          survivors.map((broker) => broker?.adoptedSessions ?? 0).sort((a, b) => a - b),
        ).toEqual([0, survivors[0]!.consumers]);

        // Back (as a supervisor would bring it), it takes its sessions over from the adopter: it
        // answers healthy once its own consumers have subscribed again.
        await startReporting(victim);
      }, 480_000);

      it('restarted at once: it takes its sessions back from their adopter, no acknowledged reading lost, the others keep storing', async () => {
        const victim = rig.nodes[1]!;
        const { field, t0, killedAt } = await killUnderLoad(victim);
        // A survivor adopts its sessions on its will; back a few seconds later, it takes them
        // over again (DISCONNECT 0x8E to the adopter), with what they hold.
        await sleepUntil(t0 + RESTART_AT_MS);
        const restartAt = Date.now();
        await startReporting(victim);
        log(
          `${victim.name} back ${((Date.now() - restartAt) / 1000).toFixed(1)} s after its start`,
        );

        await sleepUntil(t0 + LOAD_MS);
        const outage = stored.storedBetween(killedAt, restartAt);
        await expectNoneLost(field, 'restarted at once', () => ({
          seconds: ((restartAt - killedAt) / 1000).toFixed(1),
          storedBySurvivors: outage.rows,
          perSecond: stored.perSecond(killedAt, restartAt).join(' '),
        }));
        // While the victim was dead rows kept arriving: only the two others could store them.
        expect(outage.rows).toBeGreaterThan(0);
      }, 480_000);
    });
  },
);

/** Starts a node again; when it cannot, says why (the rig's error keeps only its last lines). */
async function startReporting(node: RigNode): Promise<void> {
  try {
    await node.start();
  } catch (error) {
    const lines = node.output().split('\n');
    const serious = lines.filter((line) => !line.startsWith('{"level":40') && line.trim() !== '');
    const warnings = [
      ...new Set(
        lines
          .filter((line) => line.startsWith('{"level":40'))
          .map((line) => line.replace(/"time":\d+,/, '').slice(0, 300)),
      ),
    ];
    console.log(
      `${node.name} did not start. Its output but warnings (last 40 lines):\n${serious.slice(-40).join('\n')}\n` +
        `distinct warnings (last 5):\n${warnings.slice(-5).join('\n')}`,
    );
    throw error;
  }
}
