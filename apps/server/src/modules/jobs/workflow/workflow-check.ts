import { dagProblem, workflowDagSchema, type WorkflowDag } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import type { FieldProblem } from '../../../http/app-error';

/** How a problem names its nodes: `name ("id")`, the form the editor finds to draw red. */
function nodesText(dag: WorkflowDag, ids: readonly string[]): string {
  const names = new Map(dag.nodes.map((node) => [node.id, node.name]));
  return ids.map((id) => `${names.get(id) ?? id} ("${id}")`).join(' → ');
}

/**
 * Checks a DAG as saved (field `field`): its shape, no cycle or other structural problem (the
 * nodes named, a cycle in order), and every job node's job one of the tenant's (RLS confines
 * the look-up). Answers the DAG as parsed, or the problem.
 */
export async function checkDag(
  sql: Sql,
  input: unknown,
  field = 'dag',
): Promise<{ dag: WorkflowDag } | { problem: FieldProblem }> {
  const parsed = workflowDagSchema.safeParse(typeof input === 'string' ? safeJson(input) : input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: {
        field,
        key: 'jobs.dag.invalid',
        params: { detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` },
      },
    };
  }
  const dag = parsed.data;
  const problem = dagProblem(dag);
  if (problem)
    return {
      problem: {
        field,
        key: `jobs.dag.${problem.code}`,
        params: { nodes: nodesText(dag, problem.nodes) },
      },
    };
  const jobIds = [...new Set(dag.nodes.flatMap((node) => (node.jobId ? [node.jobId] : [])))];
  const { rows } = await sql.query<{ id: string }>(
    'SELECT id::text FROM job_info WHERE id = ANY ($1::bigint[])',
    [jobIds],
  );
  const known = new Set(rows.map((row) => row.id));
  const unknown = dag.nodes.filter((node) => node.jobId && !known.has(node.jobId));
  if (unknown.length)
    return {
      problem: {
        field,
        key: 'jobs.dag.jobUnknown',
        params: {
          nodes: nodesText(
            dag,
            unknown.map((node) => node.id),
          ),
          jobIds: unknown.map((node) => node.jobId).join(', '),
        },
      },
    };
  return { dag };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Init params: empty, or a JSON object (the first content of every run's context). */
export function initParamsProblem(
  text: string | null | undefined,
  field = 'initParams',
): FieldProblem | undefined {
  if (!text?.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { field, key: 'jobs.params.notJson' };
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? undefined
    : { field, key: 'jobs.params.notObject' };
}
