import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { ALIVE_MS, HEARTBEAT_MS } from '../modules/jobs/job-nodes';
import type { WindowedConsumer } from './windowed-consumer';

/** After a take-over by its owner, a peer's sessions are left alone this long. */
const RELEASED_MS = 2 * ALIVE_MS;

/** The consumers' client ids of a node (external-transport.ts names them so). */
export const consumerClientId = (mqttNodeId: string, index: number) =>
  `shuili-${mqttNodeId}-work${index}`;

export interface Peer {
  nodeId: string;
  consumers: number;
  lost: boolean;
}

/**
 * Mosquitto 2.0 gives a share group's offline member its turn of the messages like any other:
 * what falls to a dead node's persistent sessions waits there until it comes back. So the nodes
 * carry a lost peer's load: one of the live nodes (chosen the same way by every node from the
 * registry, scheduler_node) connects under the peer's consumer client ids with clean start off,
 * takes what waits in its sessions and its turn of what comes, and lets go when the peer comes
 * back: the peer's own connection takes the session over (DISCONNECT 0x8E) and the adopted
 * consumer does not reconnect ('release').
 *
 * A peer is lost when the broker says it is gone (its will, published the moment its connection
 * drops without a DISCONNECT: a killed process, a hung one once its keep-alive runs out; see
 * {@link peerState}), or by the registry's rule, no heartbeat for ALIVE_MS, which holds when the
 * broker cannot say. A node stopped gracefully leaves the registry and is not adopted (it is
 * expected back, or it left the group with MQTT_LEAVE_ON_STOP).
 */
export class SessionAdoption {
  private timer: NodeJS.Timeout | undefined;
  private readonly adopted = new Map<string, WindowedConsumer[]>();
  private readonly releasedAt = new Map<string, number>();
  /** Peers the broker says are gone (their will), until they say they are up again. */
  private readonly gone = new Set<string>();
  private scanning = false;
  /** A scan was asked for while one ran: it runs again with what changed meanwhile. */
  private scanAgain = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      db: Database;
      /** This node's MQTT_NODE_ID. */
      self: string;
      /** A consumer on a peer's session that lets go on a take-over (not started). */
      consumer(clientId: string): WindowedConsumer;
      log: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.started = true;
    this.timer = setInterval(() => void this.scan(), HEARTBEAT_MS);
    this.timer.unref();
  }

  /**
   * What the broker says of a node (its retained state: 'up' once its watcher connects, 'gone'
   * as its will). Every node reads the same retained states, so they agree on the adopter as
   * they do from the registry. A gone peer is adopted at once rather than after ALIVE_MS.
   */
  peerState(nodeId: string, state: 'up' | 'gone'): void {
    const changed = state === 'gone' ? !this.gone.has(nodeId) : this.gone.has(nodeId);
    if (!changed) return;
    if (state === 'gone') this.gone.add(nodeId);
    else this.gone.delete(nodeId);
    if (nodeId !== this.deps.self)
      this.deps.log.info({ peer: nodeId, state }, 'MQTT node state from the broker');
    if (this.started) void this.scan();
  }

  /** Peers' sessions adopted now (for tests and the log). */
  get adoptedPeers(): string[] {
    return [...this.adopted.keys()];
  }

  /** How many sessions of lost peers are consumed here now. */
  get adoptedSessions(): number {
    return [...this.adopted.values()].reduce((sum, consumers) => sum + consumers.length, 0);
  }

  /** Lets every adopted session go (DISCONNECT: the broker keeps them for their owners). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all([...this.adopted.keys()].map((peer) => this.release(peer)));
  }

  /** Adopts the lost peers this node is the chosen adopter of, lets go of the others. */
  async scan(): Promise<void> {
    if (this.stopped) return;
    if (this.scanning) {
      this.scanAgain = true;
      return;
    }
    this.scanning = true;
    try {
      const peers = (await this.peers()).map((peer) => ({
        ...peer,
        lost: peer.lost || this.gone.has(peer.nodeId),
      }));
      const mine = new Map(peersToAdopt(peers, this.deps.self).map((peer) => [peer.nodeId, peer]));
      for (const peer of [...this.adopted.keys()]) if (!mine.has(peer)) await this.release(peer);
      const now = Date.now();
      for (const peer of mine.values()) {
        if (this.adopted.has(peer.nodeId) || this.stopped) continue;
        if (now - (this.releasedAt.get(peer.nodeId) ?? -Infinity) < RELEASED_MS) continue;
        this.adopt(peer);
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'consumer session adoption: registry not read');
    } finally {
      this.scanning = false;
    }
    if (this.scanAgain) {
      this.scanAgain = false;
      await this.scan();
    }
  }

  private async peers(): Promise<Peer[]> {
    const { rows } = await this.deps.db.system((sql) =>
      sql.query<{ mqtt_node_id: string; mqtt_consumers: number; lost: boolean }>(
        `SELECT mqtt_node_id, mqtt_consumers,
                heartbeat_at < now() - make_interval(secs => $1) AS lost
           FROM scheduler_node WHERE mqtt_node_id IS NOT NULL`,
        [ALIVE_MS / 1000],
      ),
    );
    return rows.map((row) => ({
      nodeId: row.mqtt_node_id,
      consumers: row.mqtt_consumers,
      lost: row.lost,
    }));
  }

  private adopt(peer: Peer): void {
    const consumers = Array.from({ length: peer.consumers }, (_, i) =>
      this.deps.consumer(consumerClientId(peer.nodeId, i)),
    );
    this.adopted.set(peer.nodeId, consumers);
    let released = 0;
    for (const consumer of consumers) {
      // Its owner is back: the sessions are its own again.
      consumer.onReleased = () => {
        released += 1;
        if (released === consumers.length && this.adopted.get(peer.nodeId) === consumers) {
          this.adopted.delete(peer.nodeId);
          this.releasedAt.set(peer.nodeId, Date.now());
          this.deps.log.info(
            { peer: peer.nodeId },
            'lost MQTT node is back: its sessions released',
          );
        }
      };
      consumer.start();
    }
    this.deps.log.warn(
      {
        peer: peer.nodeId,
        sessions: consumers.length,
        why: this.gone.has(peer.nodeId) ? 'its will: the broker lost it' : 'no heartbeat',
      },
      'MQTT node lost: consuming its sessions until it returns',
    );
  }

  private async release(peer: string): Promise<void> {
    const consumers = this.adopted.get(peer);
    if (!consumers) return;
    this.adopted.delete(peer);
    this.releasedAt.set(peer, Date.now());
    await Promise.all(consumers.map((consumer) => consumer.stop()));
  }
}

/**
 * The lost peers `self` adopts, from the registry's rows (a node has one row per life: a node
 * killed and started again has two for a while, until the old one ages out of ALIVE_MS).
 */
export function peersToAdopt(peers: Peer[], self: string): Peer[] {
  // Each node once: nodes that read the registry either side of the moment an old row ages out
  // must still choose the same adopter (with that row counted they did not, and both adopted).
  const alive = [...new Set(peers.filter((peer) => !peer.lost).map((peer) => peer.nodeId))].sort();
  // Without its own fresh heartbeat this node may be the one seen as lost: it adopts nothing.
  if (!alive.includes(self)) return [];
  return (
    peers
      // A row left by a crash whose node runs again (under a new registry name) is alive.
      .filter((peer) => peer.lost && !alive.includes(peer.nodeId))
      .filter((peer) => adopterOf(peer.nodeId, alive) === self)
  );
}

/** The live node that adopts a lost peer: the same on every node that reads the same registry. */
function adopterOf(peer: string, alive: string[]): string | undefined {
  if (alive.length === 0) return undefined;
  const hash = crypto.createHash('sha256').update(peer).digest().readUInt32BE(0);
  return alive[hash % alive.length];
}
