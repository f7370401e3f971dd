import { areaSegmentPath, ledArea } from '@shuili/contract';

/** The set-program page with a program and screens chosen (query: programId, deviceIds). */
export function setProgramPath(programId: string, deviceIds: readonly string[] = []): string {
  const query = new URLSearchParams({ programId });
  if (deviceIds.length) query.set('deviceIds', deviceIds.join(','));
  return `${areaSegmentPath(ledArea, 'setProgram')}?${query.toString()}`;
}

/** The editor on a program. */
export function editProgramPath(programId: string): string {
  return `${areaSegmentPath(ledArea, 'ledEditProgram')}?id=${encodeURIComponent(programId)}`;
}

export const PROGRAM_LIST_PATH = areaSegmentPath(ledArea, 'ledProgramManagement');
