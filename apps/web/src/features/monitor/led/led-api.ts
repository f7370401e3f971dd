import {
  DEVICE_FILE_CALLS,
  entityCalls,
  LED_CALLS,
  ledProgramEntity,
  type CommandView,
  type LedPage,
  type LedProgramContent,
  type LedProgramContentSave,
  type LedSendResult,
  type PageResult,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { http } from '../../../lib/http';
import { downloadFile } from '../../../resource/download-file';

/** A program's row as the list answers it (its first page for the thumbnail). */
export interface LedProgramRow {
  id: string;
  programNo: string;
  programName: string;
  width: number;
  height: number;
  pageCount: number;
  firstPage: LedPage | null;
  screens: string | null;
  status: number;
}

const calls = entityCalls(ledProgramEntity);

export const ledApi = {
  programs: (params: Record<string, string | number | undefined>, signal?: AbortSignal) =>
    http.get<PageResult<LedProgramRow>>(calls.query, { params, signal }),
  content: (id: string, signal?: AbortSignal) =>
    http.get<LedProgramContent>(LED_CALLS.content, { params: { id }, signal }),
  /** Field errors are shown by the editor beside the elements: no toast for them. */
  save: (input: LedProgramContentSave) =>
    http.put<LedProgramContent>(LED_CALLS.saveContent, { data: input, quietFieldErrors: true }),
  copy: (id: string) => http.post<LedProgramContent>(LED_CALLS.copy, { data: { id } }),
  send: (programId: string, deviceIds: string[]) =>
    http.post<LedSendResult[]>(LED_CALLS.send, { data: { programId, deviceIds } }),
  sends: (commandIds: string[], signal?: AbortSignal) =>
    http.get<CommandView[]>(LED_CALLS.sends, {
      params: { commandIds: commandIds.join(',') },
      signal,
    }),
};

/** The enabled programs, for pickers (a district has tens of them, not thousands). */
export function useLedPrograms() {
  return useQuery({
    queryKey: ['led', 'programs'],
    queryFn: ({ signal }) => ledApi.programs({ currentPage: 1, pageSize: 200 }, signal),
    staleTime: 30_000,
  });
}

/** A device image as an object URL the canvas can draw (the download needs the bearer token). */
export function useDeviceImage(fileId: string | undefined): string | undefined {
  const blob = useQuery({
    queryKey: ['led', 'image', fileId],
    queryFn: async ({ signal }) =>
      (await downloadFile(DEVICE_FILE_CALLS.download, { id: fileId! }, () => {}, signal)).blob,
    enabled: !!fileId,
    staleTime: Infinity,
  }).data;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
