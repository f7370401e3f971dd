import {
  entityCalls,
  jobInfoEntity,
  JOB_CALLS,
  type PageResult,
  type WfInstanceDetail,
  type WorkflowDag,
} from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';
import type { ResourceRow } from '../../resource/resource-row';
import { isLiveInstance } from './node-states';

export const wfInstanceKey = (id: string) => ['wf-instance-detail', id] as const;

/** A workflow's saved DAG (the editor reloads it each time it opens: noCache route). */
export function useWorkflowDag(id: string | undefined) {
  return useQuery({
    queryKey: ['workflow-dag', id],
    enabled: !!id,
    retry: false,
    gcTime: 0,
    queryFn: ({ signal }) =>
      http.get<WorkflowDag | null>(JOB_CALLS.queryWorkflowDag, { params: { id }, signal }),
  });
}

/** The tenant's jobs for the editor's palette (any time expression type may be a node). */
export function useJobs(search: string) {
  return useQuery({
    queryKey: ['workflow-palette-jobs', search],
    staleTime: 30_000,
    queryFn: ({ signal }) =>
      http.get<PageResult<ResourceRow>>(entityCalls(jobInfoEntity).query, {
        params: { currentPage: 1, pageSize: 100, jobName: search.trim() || undefined },
        signal,
      }),
  });
}

/** Saves a DAG; the caller shows the refusal itself (it names the nodes to draw red). */
export const saveWorkflowDag = (id: string, dag: WorkflowDag) =>
  http.put<unknown>(JOB_CALLS.saveWorkflowDag, { data: { id, dag }, silent: true });

export const runWorkflow = (id: string, initParams?: string) =>
  http.post<{ wfInstanceId: string }>(JOB_CALLS.runWorkflow, {
    data: initParams === undefined ? { id } : { id, initParams },
  });

/** A run with its node states, polled every second while it has not ended. */
export function useWfInstanceDetail(id: string | undefined) {
  return useQuery({
    queryKey: wfInstanceKey(id ?? ''),
    enabled: !!id,
    retry: false,
    queryFn: ({ signal }) =>
      http.get<WfInstanceDetail>(JOB_CALLS.queryWfInstanceDetail, { params: { id }, signal }),
    refetchInterval: (query) => (isLiveInstance(query.state.data?.status) ? 1000 : false),
  });
}

type WfAction = 'stop' | 'retry' | 'markNodeSuccess';

const ACTION_CALL: Record<WfAction, string> = {
  stop: JOB_CALLS.stopWfInstance,
  retry: JOB_CALLS.retryWfInstance,
  markNodeSuccess: JOB_CALLS.markNodeSuccess,
};

/** Stop, retry the failed nodes, mark a node successful; the run (and lists) refresh after. */
export function useWfInstanceAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id, nodeId }: { action: WfAction; id: string; nodeId?: string }) =>
      http.post<unknown>(ACTION_CALL[action], { data: nodeId ? { id, nodeId } : { id } }),
    onSuccess: (_result, { id }) => {
      void queryClient.invalidateQueries({ queryKey: wfInstanceKey(id) });
      void queryClient.invalidateQueries({ queryKey: ['resource'] });
    },
  });
}
