import { DownloadOutlined } from '@ant-design/icons';
import { TOAST_MS, type EntityDef } from '@shuili/contract';
import { Button, Dropdown, Modal, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../lib/feedback';
import { downloadFile, percentOf, saveFile, type DownloadProgress } from './download-file';
import { EXPORT_FORMATS, resourceApi, type ExportFormat } from './resource-api';
import type { QueryParams } from './search-params';

/** A byte count as people read it (KB up to a megabyte, then MB). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface ExportButtonProps {
  entity: EntityDef;
  /** The list's filters and order: exports hold every matching row, not just the page. */
  params: QueryParams;
}

interface Running {
  format: ExportFormat;
  progress: DownloadProgress;
}

/** The export menu (xlsx, docx, pdf, csv) and the progress of the file being downloaded. */
export function ExportButton({ entity, params }: ExportButtonProps) {
  const { t } = useTranslation();
  const [running, setRunning] = useState<Running | undefined>();
  const abort = useRef<AbortController | undefined>(undefined);

  const start = async (format: ExportFormat) => {
    const controller = new AbortController();
    abort.current = controller;
    setRunning({ format, progress: { loaded: 0, total: undefined } });
    try {
      const file = await downloadFile(
        resourceApi(entity).exportUrl(format),
        params,
        (progress) => setRunning({ format, progress }),
        controller.signal,
      );
      saveFile(file);
      feedback.success(t('resource.export.done', { name: file.filename }), TOAST_MS.success / 1000);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) {
        feedback.error(
          error instanceof Error && error.message ? error.message : t('resource.export.failed'),
          TOAST_MS.error / 1000,
        );
      }
    } finally {
      abort.current = undefined;
      setRunning(undefined);
    }
  };

  const percent = running ? percentOf(running.progress) : undefined;

  return (
    <>
      <Dropdown
        trigger={['click']}
        disabled={running !== undefined}
        menu={{
          items: EXPORT_FORMATS.map((format) => ({
            key: format,
            label: t(`resource.export.formats.${format}`),
          })),
          onClick: ({ key }) => void start(key as ExportFormat),
        }}
      >
        <Button
          icon={<DownloadOutlined />}
          loading={running !== undefined}
          data-testid="resource-export"
        >
          {t('resource.export.button')}
        </Button>
      </Dropdown>
      <Modal
        open={running !== undefined}
        title={t('resource.export.title')}
        closable={false}
        maskClosable={false}
        okButtonProps={{ hidden: true }}
        cancelText={t('resource.cancel')}
        onCancel={() => abort.current?.abort()}
        data-testid="resource-export-progress"
      >
        <Progress
          percent={percent ?? 100}
          status="active"
          showInfo={percent !== undefined}
          data-testid="resource-export-percent"
          data-percent={percent}
        />
        <Typography.Text type="secondary">
          {running &&
            (running.progress.total
              ? t('resource.export.progress', {
                  loaded: byteSize(running.progress.loaded),
                  total: byteSize(running.progress.total),
                })
              : t('resource.export.received', { loaded: byteSize(running.progress.loaded) }))}
        </Typography.Text>
      </Modal>
    </>
  );
}
