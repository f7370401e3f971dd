import {
  TRACE_CHAIN_CALLS,
  type TraceBatch,
  type TraceChainKind,
  type TraceChainView,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { downloadFile, saveFile } from '../../../resource/download-file';

/** What the page asks the chain of: the deep link's ?code= / ?batch=, or a kind and id. */
export interface ResumeTarget {
  code?: string;
  batch?: string;
  kind?: TraceChainKind;
  id?: string;
}

/** The target as the calls' query (empty parameters left out). */
export function targetParams(target: ResumeTarget): Record<string, string | undefined> {
  if (target.kind && target.id) return { kind: target.kind, id: target.id };
  if (target.code) return { code: target.code };
  return { batch: target.batch };
}

export const hasTarget = (target: ResumeTarget) =>
  Boolean((target.kind && target.id) || target.code || target.batch);

/** The chain of the target; the page shows a failure (a 404 of an unknown number) itself. */
export function useTraceChain(target: ResumeTarget) {
  return useQuery({
    queryKey: ['trace-chain', targetParams(target)],
    enabled: hasTarget(target),
    retry: false,
    queryFn: ({ signal }) =>
      http.get<TraceChainView>(TRACE_CHAIN_CALLS.query, {
        params: targetParams(target),
        signal,
        silent: true,
      }),
  });
}

/** The batches whose number starts with what is typed (the newest when nothing is). */
export function useTraceBatches(q: string) {
  return useQuery({
    queryKey: ['trace-batches', q],
    staleTime: 30_000,
    queryFn: ({ signal }) =>
      http.get<TraceBatch[]>(TRACE_CHAIN_CALLS.batches, {
        params: { q: q || undefined },
        signal,
        silent: true,
      }),
  });
}

async function save(url: string, params: Record<string, string | undefined>): Promise<string> {
  const file = await downloadFile(url, params, () => undefined);
  saveFile(file);
  return file.filename;
}

export const resumeApi = {
  /** The chain as EPCIS 2.0 JSON-LD, handed to the browser. */
  epcis: (target: ResumeTarget) => save(TRACE_CHAIN_CALLS.epcis, targetParams(target)),
  labels: (packageId: string, copies: number) =>
    save(TRACE_CHAIN_CALLS.labels, { packageId, copies: String(copies) }),
  certificate: (packageId: string) => save(TRACE_CHAIN_CALLS.certificate, { packageId }),
};
