import { describe, expect, it } from 'vitest';
import { peersToAdopt, type Peer } from './session-adoption';

const row = (nodeId: string, lost: boolean): Peer => ({ nodeId, consumers: 2, lost });
const NODES = ['rig-node1', 'rig-node2', 'rig-node3'];
/** Who adopts `peer` as each node reads `rows`. */
const adopters = (rows: Peer[], peer: string) =>
  NODES.filter((self) => peersToAdopt(rows, self).some((one) => one.nodeId === peer));

describe('the adopter of a lost node', () => {
  it('is one live node, the same whoever reads the registry', () => {
    const rows = [row('rig-node1', false), row('rig-node2', false), row('rig-node3', true)];
    expect(adopters(rows, 'rig-node3')).toHaveLength(1);
    expect(adopters(rows, 'rig-node3')).not.toContain('rig-node3');
  });

  it('stays the same while a restarted node still has the row of its last life', () => {
    // node1 was killed and started again: its old row is alive for some readers, lost for others.
    const live = [row('rig-node1', false), row('rig-node2', false), row('rig-node3', true)];
    const oldRowAlive = [...live, row('rig-node1', false)];
    const oldRowLost = [...live, row('rig-node1', true)];
    const before = adopters(oldRowAlive, 'rig-node3');
    expect(before).toHaveLength(1);
    expect(adopters(oldRowLost, 'rig-node3')).toEqual(before);
    // And node1's old row is no one's to adopt: node1 runs.
    expect(adopters(oldRowLost, 'rig-node1')).toEqual([]);
  });

  it('is nobody while the reader is itself seen as lost', () => {
    const rows = [row('rig-node1', true), row('rig-node2', true), row('rig-node3', true)];
    for (const self of NODES) expect(peersToAdopt(rows, self)).toEqual([]);
  });
});
