import { FERTIGATION_CALLS, type FertigationRun, type PageResult } from '@shuili/contract';
import { http } from '../../../lib/http';

/** Runs a program now (a refusal is toasted with the server's reason). */
export const startProgram = (programId: string) =>
  http.post<FertigationRun>(FERTIGATION_CALLS.start, { data: { programId } });

/** Stops a program's run: the machine is told to stop. */
export const stopProgram = (programId: string) =>
  http.post<FertigationRun>(FERTIGATION_CALLS.stop, { data: { programId } });

/** A program's runs, newest first. */
export const programRuns = (programId: string, signal?: AbortSignal) =>
  http.get<PageResult<FertigationRun>>(FERTIGATION_CALLS.runs, {
    params: { programId, pageSize: 20 },
    signal,
  });
