import { z } from 'zod';

/**
 * A workflow's graph (workflow_info.dag, a run's snapshot in workflow_instance.dag): job nodes
 * and decision nodes joined by edges. Drawn on /workfloweditor; checked here by server and
 * console alike (a cycle is refused when saving).
 *
 * - A **job** node runs its job with the node's params as the instance params; `enable: false`
 *   skips it (its successors run as if it succeeded); `skipWhenFailed: true` lets its
 *   successors run when it fails.
 * - A **decision** node runs nothing: it reads one key of the run's context and compares it
 *   (never code); its out-edges are labelled `true` or `false` and only the matching branch runs.
 *   Nodes reached only by the branch not taken are skipped.
 * - A node starts when every in-edge is settled: its source succeeded, was skipped, failed with
 *   skipWhenFailed, or is a decision edge not taken. A failed node blocks only its descendants.
 */
export const DECISION_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;
export type DecisionOperator = (typeof DECISION_OPERATORS)[number];

export interface DecisionCondition {
  /** A key of the context (dots reach into objects: `report.rows`). */
  key: string;
  operator: DecisionOperator;
  /** Compared as a number when both sides are numbers, else as text (unused by `exists`). */
  value?: string;
}

export interface WorkflowNode {
  /** Unique within the DAG; kept across edits (a run's node instances name it). */
  id: string;
  type: 'job' | 'decision';
  name: string;
  /** Job nodes: the job it runs (of the same tenant, any time expression type). */
  jobId?: string;
  /** Job nodes: node params, the instance params of the job instance it makes. */
  params?: string;
  enable: boolean;
  skipWhenFailed: boolean;
  /** Decision nodes. */
  condition?: DecisionCondition;
  /** Where the editor drew it. */
  position?: { x: number; y: number };
}

export interface WorkflowEdge {
  from: string;
  to: string;
  /** Out-edges of a decision: the branch taken when the condition holds (`true`) or not. */
  branch?: 'true' | 'false';
}

export interface WorkflowDag {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

export const MAX_DAG_NODES = 200;

const nodeId = z.string().trim().min(1).max(64);

export const workflowDagSchema = z.object({
  nodes: z
    .array(
      z.object({
        id: nodeId,
        type: z.enum(['job', 'decision']),
        name: z.string().trim().min(1).max(128),
        jobId: z
          .union([z.string(), z.number().int().nonnegative()])
          .transform(String)
          .pipe(z.string().regex(/^\d{1,18}$/))
          .optional(),
        params: z.string().max(20_000).optional(),
        enable: z.boolean().default(true),
        skipWhenFailed: z.boolean().default(false),
        condition: z
          .object({
            key: z.string().trim().min(1).max(128),
            operator: z.enum(DECISION_OPERATORS),
            value: z.string().max(256).optional(),
          })
          .optional(),
        position: z.object({ x: z.number().finite(), y: z.number().finite() }).optional(),
      }),
    )
    .max(MAX_DAG_NODES),
  edges: z
    .array(z.object({ from: nodeId, to: nodeId, branch: z.enum(['true', 'false']).optional() }))
    .max(MAX_DAG_NODES * 4),
}) satisfies z.ZodType<WorkflowDag, unknown>;

/** Why a DAG cannot be saved: the problem's code (jobs.dag.<code>) and the nodes it concerns. */
export interface DagProblem {
  code:
    | 'duplicateNode'
    | 'unknownNode'
    | 'selfLoop'
    | 'duplicateEdge'
    | 'cycle'
    | 'jobMissing'
    | 'conditionMissing'
    | 'branchMissing'
    | 'branchOnJob'
    | 'empty';
  nodes: string[];
}

/** The first problem of a DAG (validated by workflowDagSchema), or undefined when it is sound. */
export function dagProblem(dag: WorkflowDag): DagProblem | undefined {
  if (dag.nodes.length === 0) return { code: 'empty', nodes: [] };
  const byId = new Map<string, WorkflowNode>();
  for (const node of dag.nodes) {
    if (byId.has(node.id)) return { code: 'duplicateNode', nodes: [node.id] };
    byId.set(node.id, node);
    if (node.type === 'job' && !node.jobId) return { code: 'jobMissing', nodes: [node.id] };
    if (node.type === 'decision' && !node.condition)
      return { code: 'conditionMissing', nodes: [node.id] };
  }
  const seen = new Set<string>();
  for (const edge of dag.edges) {
    for (const end of [edge.from, edge.to])
      if (!byId.has(end)) return { code: 'unknownNode', nodes: [end] };
    if (edge.from === edge.to) return { code: 'selfLoop', nodes: [edge.from] };
    const key = `${edge.from}\u0000${edge.to}`;
    if (seen.has(key)) return { code: 'duplicateEdge', nodes: [edge.from, edge.to] };
    seen.add(key);
    const source = byId.get(edge.from)!;
    if (source.type === 'decision' && !edge.branch)
      return { code: 'branchMissing', nodes: [edge.from, edge.to] };
    if (source.type === 'job' && edge.branch)
      return { code: 'branchOnJob', nodes: [edge.from, edge.to] };
  }
  const cycle = findCycle(dag);
  return cycle ? { code: 'cycle', nodes: cycle } : undefined;
}

/** The nodes of one cycle (in order), or undefined: depth-first search with three colours. */
export function findCycle(dag: WorkflowDag): string[] | undefined {
  const next = successorsOf(dag);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 'open');
    path.push(id);
    for (const to of next.get(id) ?? []) {
      if (state.get(to) === 'open') return path.slice(path.indexOf(to));
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const node of dag.nodes) {
    if (state.has(node.id)) continue;
    const found = visit(node.id);
    if (found) return found;
  }
  return undefined;
}

/** Each node's successors. */
export function successorsOf(dag: WorkflowDag): Map<string, string[]> {
  const next = new Map<string, string[]>(dag.nodes.map((node) => [node.id, []]));
  for (const edge of dag.edges) next.get(edge.from)?.push(edge.to);
  return next;
}

/** Each node's in-edges. */
export function inEdgesOf(dag: WorkflowDag): Map<string, WorkflowEdge[]> {
  const incoming = new Map<string, WorkflowEdge[]>(dag.nodes.map((node) => [node.id, []]));
  for (const edge of dag.edges) incoming.get(edge.to)?.push(edge);
  return incoming;
}

/** Reads a dotted key of a context (`report.rows`). */
export function contextValue(context: Record<string, unknown>, key: string): unknown {
  let value: unknown = context;
  for (const part of key.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Whether a decision's condition holds on a context. */
export function decide(condition: DecisionCondition, context: Record<string, unknown>): boolean {
  const actual = contextValue(context, condition.key);
  if (condition.operator === 'exists') return actual !== undefined && actual !== null;
  if (actual === undefined || actual === null) return condition.operator === 'ne';
  const expected = condition.value ?? '';
  const [left, right] = [Number(actual), Number(expected)];
  const numeric =
    typeof actual !== 'object' &&
    expected.trim() !== '' &&
    Number.isFinite(left) &&
    Number.isFinite(right);
  const order = numeric
    ? Math.sign(left - right)
    : String(typeof actual === 'object' ? JSON.stringify(actual) : actual).localeCompare(expected);
  switch (condition.operator) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
  }
}
