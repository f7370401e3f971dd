import type { WfNodeState, WorkflowDag, WorkflowEdge, WorkflowNode } from '@shuili/contract';
import type { Edge, Node } from '@xyflow/react';

/** What a drawn node carries: the DAG's node, and for a run its state. */
export type WfNodeData = {
  node: WorkflowNode;
  /** A run's node state (instance details); absent in the editor. */
  state?: WfNodeState;
  /** Named by the last refusal (a cycle's nodes, a job missing): drawn red. */
  problem?: boolean;
};
export type WfFlowNode = Node<WfNodeData, 'wfNode'>;
export type WfEdgeData = { branch?: 'true' | 'false' };
export type WfFlowEdge = Edge<WfEdgeData>;

export const WF_NODE_TYPE = 'wfNode';

/** The drawn edge's id: one edge per ordered pair, as the DAG allows. */
export const edgeIdOf = (from: string, to: string) => `${from}->${to}`;

/** A DAG edge as drawn; a decision's branch is its label (translated by the caller). */
export function toFlowEdge(
  edge: WorkflowEdge,
  branchLabel: (branch: 'true' | 'false') => string,
): WfFlowEdge {
  return {
    id: edgeIdOf(edge.from, edge.to),
    source: edge.from,
    target: edge.to,
    data: edge.branch ? { branch: edge.branch } : {},
    label: edge.branch ? branchLabel(edge.branch) : undefined,
    className: edge.branch ? `wf-branch-${edge.branch}` : undefined,
  };
}

/**
 * The DAG as React Flow nodes and edges (positions as saved; unsaved ones at the origin); with a
 * run's node states, each node carries its own.
 */
export function dagToFlow(
  dag: WorkflowDag,
  branchLabel: (branch: 'true' | 'false') => string,
  states?: ReadonlyMap<string, WfNodeState>,
): { nodes: WfFlowNode[]; edges: WfFlowEdge[] } {
  return {
    nodes: dag.nodes.map((node) => ({
      id: node.id,
      type: WF_NODE_TYPE,
      position: node.position ?? { x: 0, y: 0 },
      data: states ? { node, state: states.get(node.id) ?? 'WAITING' } : { node },
    })),
    edges: dag.edges.map((edge) => ({
      ...toFlowEdge(edge, branchLabel),
      // Work flowing into a running node.
      animated: states?.get(edge.to) === 'RUNNING',
    })),
  };
}

/** Whether any node lacks a saved position (a DAG written through the API): lay it out then. */
export const needsLayout = (dag: WorkflowDag) => dag.nodes.some((node) => !node.position);

/** The drawing as the DAG to save: the nodes' data with where they stand now, the edges. */
export function flowToDag(nodes: readonly WfFlowNode[], edges: readonly WfFlowEdge[]): WorkflowDag {
  return {
    nodes: nodes.map(({ data, position }) => ({
      ...data.node,
      position: { x: Math.round(position.x), y: Math.round(position.y) },
    })),
    edges: edges.map((edge) => ({
      from: edge.source,
      to: edge.target,
      ...(edge.data?.branch ? { branch: edge.data.branch } : {}),
    })),
  };
}

/**
 * The branch of a new edge from `source`: a decision's first out-edge is its true branch, the
 * next its false one (the edge panel switches it); a job's edges have none.
 */
export function branchOfNewEdge(
  source: WfFlowNode | undefined,
  edges: readonly WfFlowEdge[],
): 'true' | 'false' | undefined {
  if (source?.data.node.type !== 'decision') return undefined;
  const taken = edges.filter((edge) => edge.source === source.id);
  return taken.some((edge) => edge.data?.branch === 'true') ? 'false' : 'true';
}

/** A node id not yet in the drawing (n1, n2, …): ids stay stable across edits and runs. */
export function nextNodeId(existing: Iterable<string>): string {
  const taken = new Set(existing);
  let index = taken.size + 1;
  while (taken.has(`n${index}`)) index += 1;
  return `n${index}`;
}

/**
 * The nodes a refusal names: ids given by the client check, or, for the server's message, the
 * nodes whose id or name the message quotes.
 */
export function nodesNamedIn(message: string, nodes: readonly WorkflowNode[]): string[] {
  return nodes
    .filter(
      (node) => message.includes(`"${node.id}"`) || (node.name && message.includes(node.name)),
    )
    .map((node) => node.id);
}
