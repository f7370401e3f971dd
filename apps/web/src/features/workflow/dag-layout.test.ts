import { describe, expect, it } from 'vitest';
import { dagToFlow } from './dag-flow';
import { layoutNodes, NODE_HEIGHT, NODE_WIDTH } from './dag-layout';

const node = (id: string) => ({
  id,
  type: 'job' as const,
  name: id,
  jobId: '1',
  enable: true,
  skipWhenFailed: false,
});

describe('auto layout', () => {
  it('lays a DAG out left to right: each node right of its predecessors, siblings apart', () => {
    const { nodes, edges } = dagToFlow(
      {
        nodes: ['a', 'b', 'c', 'd'].map(node),
        edges: [
          { from: 'a', to: 'b' },
          { from: 'a', to: 'c' },
          { from: 'b', to: 'd' },
          { from: 'c', to: 'd' },
        ],
      },
      () => '',
    );
    const at = new Map(layoutNodes(nodes, edges).map((laid) => [laid.id, laid.position]));
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => at.get(id)!);
    expect(b!.x).toBeGreaterThanOrEqual(a!.x + NODE_WIDTH);
    expect(c!.x).toBe(b!.x);
    expect(Math.abs(b!.y - c!.y)).toBeGreaterThanOrEqual(NODE_HEIGHT);
    expect(d!.x).toBeGreaterThanOrEqual(b!.x + NODE_WIDTH);
  });

  it('keeps the nodes and their data, moving only their positions', () => {
    const { nodes, edges } = dagToFlow({ nodes: [node('x'), node('y')], edges: [] }, () => '');
    const laid = layoutNodes(nodes, edges);
    expect(laid.map((one) => one.data)).toEqual(nodes.map((one) => one.data));
    expect(laid[0]!.position).not.toEqual(laid[1]!.position);
  });
});
