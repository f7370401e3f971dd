import { WORKBENCH_CALLS, type WorkbenchOverview } from '@shuili/contract';
import { http } from '../../../lib/http';

/** The overview's query key: live pushes refresh it. */
export const OVERVIEW_KEY = ['home', 'workbench', 'overview'] as const;

/** The operations overview; silent: a role without the call sees the workbench without it. */
export const workbenchApi = {
  overview: (signal?: AbortSignal) =>
    http.get<WorkbenchOverview>(WORKBENCH_CALLS.overview, { signal, silent: true }),
};
