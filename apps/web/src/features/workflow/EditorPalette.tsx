import { BranchesOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './workflow.module.css';

/** The drag payload of a palette item dropped on the canvas. */
export const PALETTE_MIME = 'application/x-shuili-workflow-node';

export type PaletteItem = { type: 'job'; jobId: string; name: string } | { type: 'decision' };

interface EditorPaletteProps {
  jobs: ReadonlyArray<{ id: string; name: string }>;
  loading: boolean;
  search: string;
  onSearch: (text: string) => void;
  onAdd: (item: PaletteItem) => void;
}

/** The tenant's jobs and a decision node, dragged onto the canvas or added with their button. */
export function EditorPalette({ jobs, loading, search, onSearch, onAdd }: EditorPaletteProps) {
  const { t } = useTranslation();
  const item = (payload: PaletteItem, text: string, icon: React.ReactNode, testId: string) => (
    <div
      className={styles.paletteItem}
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(payload));
        event.dataTransfer.effectAllowed = 'move';
      }}
      data-testid={testId}
    >
      <span title={text}>
        {icon} {text}
      </span>
      {/* A native tooltip: antd's would cover the next item's button. */}
      <Button
        size="small"
        type="text"
        icon={<PlusOutlined />}
        title={t('workflow.editor.addToCanvas')}
        aria-label={t('workflow.editor.addToCanvas')}
        onClick={() => onAdd(payload)}
        data-testid={`${testId}-add`}
      />
    </div>
  );
  return (
    <div className={styles.palette} data-testid="wf-palette">
      {item(
        { type: 'decision' },
        t('workflow.editor.decision'),
        <BranchesOutlined />,
        'wf-add-decision',
      )}
      <Input.Search
        allowClear
        size="small"
        placeholder={t('workflow.editor.searchJobs')}
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
      <div className={styles.paletteList}>
        {loading ? (
          <Spin />
        ) : jobs.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workflow.editor.noJobs')} />
        ) : (
          jobs.map((job) => (
            <div key={job.id} data-job-name={job.name}>
              {item(
                { type: 'job', jobId: job.id, name: job.name },
                job.name,
                null,
                'wf-palette-job',
              )}
            </div>
          ))
        )}
      </div>
    </div>
  );
}
