import type { ProcessorType } from '@shuili/contract';
import type { JobProcessor } from '../job-processor';
import { alarmDigestProcessor } from './alarm-digest';
import { dataReportProcessor } from './data-report';
import { irrigationProgramProcessor } from './irrigation-program';
import { recomputeRollupsProcessor } from './recompute-rollups';
import { retentionSweepProcessor } from './retention-sweep';
import { webhookProcessor } from './webhook';

/** The built-in processors by type (PROCESSORS in the contract declares their parameters). */
export const JOB_PROCESSORS: Record<ProcessorType, JobProcessor> = {
  irrigationProgram: irrigationProgramProcessor,
  dataReport: dataReportProcessor,
  retentionSweep: retentionSweepProcessor,
  alarmDigest: alarmDigestProcessor,
  recomputeRollups: recomputeRollupsProcessor,
  webhook: webhookProcessor,
};
