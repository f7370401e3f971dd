import { MONITOR_REPORT_CALLS, type AreaReport, type AreaReportQuery } from '@shuili/contract';
import { http } from '../../../lib/http';
import { downloadFile, saveFile } from '../../../resource/download-file';

/** The query as sent: undefined parameters are left out (the cross-area report has no area). */
const paramsOf = (query: AreaReportQuery) => ({ ...query }) as Record<string, string | undefined>;

export const reportApi = {
  /** A failure is the screen's to show beside the controls, not a toast over them. */
  report: (query: AreaReportQuery, signal?: AbortSignal) =>
    http.get<AreaReport>(MONITOR_REPORT_CALLS.query, {
      params: paramsOf(query),
      signal,
      silent: true,
    }),
  /** Downloads the report as xlsx and hands it to the browser. */
  async exportXlsx(query: AreaReportQuery): Promise<string> {
    const file = await downloadFile(
      MONITOR_REPORT_CALLS.export,
      { ...paramsOf(query), format: 'xlsx' },
      () => undefined,
    );
    saveFile(file);
    return file.filename;
  },
};
