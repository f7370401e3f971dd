import { dagProblem, type WorkflowDag } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import {
  branchOfNewEdge,
  dagToFlow,
  flowToDag,
  needsLayout,
  nextNodeId,
  nodesNamedIn,
} from './dag-flow';

const branchLabel = (branch: 'true' | 'false') => (branch === 'true' ? 'yes' : 'no');

const dag: WorkflowDag = {
  nodes: [
    {
      id: 'a',
      type: 'job',
      name: 'Report',
      jobId: '7',
      params: '{"x":1}',
      enable: true,
      skipWhenFailed: false,
      position: { x: 10, y: 20 },
    },
    {
      id: 'd',
      type: 'decision',
      name: 'Rows?',
      condition: { key: 'rows', operator: 'gt', value: '0' },
      enable: true,
      skipWhenFailed: false,
      position: { x: 300, y: 20 },
    },
    {
      id: 'b',
      type: 'job',
      name: 'Mail',
      jobId: '8',
      enable: false,
      skipWhenFailed: true,
      position: { x: 600, y: 0 },
    },
    {
      id: 'c',
      type: 'job',
      name: 'Sweep',
      jobId: '9',
      enable: true,
      skipWhenFailed: false,
      position: { x: 600, y: 100 },
    },
  ],
  edges: [
    { from: 'a', to: 'd' },
    { from: 'd', to: 'b', branch: 'true' },
    { from: 'd', to: 'c', branch: 'false' },
  ],
};

describe('dag ↔ React Flow', () => {
  it('draws every node and edge, decision edges labelled with their branch', () => {
    const drawn = dagToFlow(dag, branchLabel);
    expect(drawn.nodes.map((node) => [node.id, node.position])).toEqual([
      ['a', { x: 10, y: 20 }],
      ['d', { x: 300, y: 20 }],
      ['b', { x: 600, y: 0 }],
      ['c', { x: 600, y: 100 }],
    ]);
    expect(drawn.nodes.every((node) => node.type === 'wfNode' && !node.data.state)).toBe(true);
    expect(drawn.edges.map((edge) => [edge.id, edge.label, edge.data?.branch])).toEqual([
      ['a->d', undefined, undefined],
      ['d->b', 'yes', 'true'],
      ['d->c', 'no', 'false'],
    ]);
  });

  it('gives the same DAG back, with moved positions rounded', () => {
    const drawn = dagToFlow(dag, branchLabel);
    drawn.nodes[0]!.position = { x: 12.6, y: 19.2 };
    const back = flowToDag(drawn.nodes, drawn.edges);
    expect(back.edges).toEqual(dag.edges);
    expect(back.nodes[0]).toEqual({ ...dag.nodes[0], position: { x: 13, y: 19 } });
    expect(back.nodes.slice(1)).toEqual(dag.nodes.slice(1));
    expect(dagProblem(back)).toBeUndefined();
  });

  it("carries a run's node states, waiting when a node has none yet, and animates edges into a running node", () => {
    const drawn = dagToFlow(
      dag,
      branchLabel,
      new Map([
        ['a', 'SUCCEED'],
        ['d', 'RUNNING'],
      ]),
    );
    expect(drawn.nodes.map((node) => node.data.state)).toEqual([
      'SUCCEED',
      'RUNNING',
      'WAITING',
      'WAITING',
    ]);
    expect(drawn.edges.map((edge) => edge.animated)).toEqual([true, false, false]);
  });

  it('asks for a layout only when a node has no position', () => {
    expect(needsLayout(dag)).toBe(false);
    expect(
      needsLayout({
        ...dag,
        nodes: [
          ...dag.nodes,
          { id: 'e', type: 'job', name: 'E', jobId: '1', enable: true, skipWhenFailed: false },
        ],
      }),
    ).toBe(true);
  });

  it('names new nodes with ids not yet taken', () => {
    expect(nextNodeId([])).toBe('n1');
    expect(nextNodeId(['n1', 'n2'])).toBe('n3');
    expect(nextNodeId(['n3', 'x'])).toBe('n4');
    expect(nextNodeId(['n3', 'n4', 'n1'])).toBe('n5');
  });

  it('finds the nodes a server refusal quotes by name or id', () => {
    expect(nodesNamedIn('The DAG has a cycle: Mail → Sweep → Mail', dag.nodes)).toEqual(['b', 'c']);
    expect(nodesNamedIn('unknown node "d"', dag.nodes)).toEqual(['d']);
    expect(nodesNamedIn('saved', dag.nodes)).toEqual([]);
  });

  it("gives a decision's out-edges the true branch first, then false; a job's none", () => {
    const drawn = dagToFlow(dag, branchLabel);
    const [a, d] = drawn.nodes;
    expect(branchOfNewEdge(a, drawn.edges)).toBeUndefined();
    expect(branchOfNewEdge(d, [])).toBe('true');
    expect(
      branchOfNewEdge(
        d,
        drawn.edges.filter((edge) => edge.data?.branch === 'true'),
      ),
    ).toBe('false');
    expect(
      branchOfNewEdge(
        d,
        drawn.edges.filter((edge) => edge.data?.branch === 'false'),
      ),
    ).toBe('true');
  });
});
