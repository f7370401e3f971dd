import { HistoryOutlined } from '@ant-design/icons';
import { TRACE_SCREENS } from '@shuili/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ResourceRow } from '../../../resource/resource-row';

/** What a list row's resume link names: a package batch by trace code, a harvest by number. */
const LINKS = {
  package: { field: 'traceCode', param: 'code' },
  harvest: { field: 'batchNo', param: 'batch' },
} as const;

function ResumeLink({ row, kind }: { row: ResourceRow; kind: keyof typeof LINKS }) {
  const { t } = useTranslation();
  const { field, param } = LINKS[kind];
  const value = row[field];
  if (typeof value !== 'string' || !value) return null;
  return (
    <Tooltip title={t('trace.resume.rowLink')}>
      <Link
        to={`${TRACE_SCREENS.resume}?${param}=${encodeURIComponent(value)}`}
        data-testid="row-resume"
        aria-label={t('trace.resume.rowLink')}
      >
        <Button type="text" size="small" icon={<HistoryOutlined />} tabIndex={-1} />
      </Link>
    </Tooltip>
  );
}

/** ResourcePage's rowActions of the harvest and package lists: open the row's batch resume. */
export const resumeRowAction = (kind: keyof typeof LINKS) =>
  function ResumeRowAction(row: ResourceRow) {
    return <ResumeLink row={row} kind={kind} />;
  };
