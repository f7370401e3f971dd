import { Graph, layout } from '@dagrejs/dagre';
import type { WfFlowEdge, WfFlowNode } from './dag-flow';

/** The size a node is drawn at (WorkflowNodeView), which the layout spaces them by. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 64;

/**
 * Auto layout: dagre's layered drawing left to right (a run flows as it is read). Returns the
 * nodes with new positions (top-left corners, as React Flow places them); the edges are unchanged.
 */
export function layoutNodes(
  nodes: readonly WfFlowNode[],
  edges: readonly WfFlowEdge[],
): WfFlowNode[] {
  const graph = new Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 80, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges) graph.setEdge(edge.source, edge.target);
  layout(graph);
  return nodes.map((node) => {
    const { x, y } = graph.node(node.id);
    return { ...node, position: { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 } };
  });
}
