import { CopyOutlined, LayoutOutlined, SendOutlined } from '@ant-design/icons';
import { entityButtons, ledProgramEntity, TOAST_MS, type LedPage } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePermission } from '../../../core/permission';
import { feedback } from '../../../lib/feedback';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';
import type { AreaScreenProps } from '../screens/area-screen-props';
import { ledApi } from './led-api';
import { editProgramPath, setProgramPath } from './led-paths';
import { LedCanvas } from './LedCanvas';
import { useLiveValues } from './use-live-values';

/** The thumbnails' width in CSS pixels. */
const THUMB_WIDTH = 120;

/** A program's first page, small, with its live values as they are now. */
function ProgramThumbnail({
  page,
  width,
  height,
}: {
  page: LedPage;
  width: number;
  height: number;
}) {
  const values = useLiveValues([page]);
  return (
    <LedCanvas
      page={page}
      width={width}
      height={height}
      scale={THUMB_WIDTH / width}
      values={values}
      testId="led-thumbnail"
    />
  );
}

/** One of a row's actions: an icon with its name as tooltip and accessible name. */
function RowButton(props: { title: string; icon: ReactNode; testId: string; onClick: () => void }) {
  return (
    <Tooltip title={props.title}>
      <Button
        type="link"
        size="small"
        icon={props.icon}
        aria-label={props.title}
        data-testid={props.testId}
        onClick={props.onClick}
      />
    </Tooltip>
  );
}

/**
 * /led/ledProgramManagement: the programs with a picture of their first page, resolution, pages
 * and the screens reporting them; add (then the editor opens), copy, delete, edit, send.
 */
export function LedProgramListPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const buttons = entityButtons(ledProgramEntity);
  const mayEdit = usePermission(buttons.edit);
  const mayAdd = usePermission(buttons.add);

  const copy = async (row: ResourceRow) => {
    const copied = await ledApi.copy(row.id).catch(() => undefined);
    if (!copied) return;
    feedback.success(
      t('monitor.led.copied', { program: copied.programName, code: copied.programNo }),
      TOAST_MS.success / 1000,
    );
    await queryClient.invalidateQueries();
  };

  return (
    <ResourcePage
      entity={ledProgramEntity}
      onSaved={(result, mode) => {
        const id = (result as { id?: unknown } | undefined)?.id;
        if (mode === 'create' && id !== undefined) void navigate(editProgramPath(String(id)));
      }}
      cellRenderers={{
        firstPage: (value, row) =>
          value ? (
            <ProgramThumbnail
              page={value as LedPage}
              width={Number(row.width)}
              height={Number(row.height)}
            />
          ) : null,
        screens: (value) =>
          typeof value === 'string' && value
            ? value.split(', ').map((name) => (
                <Tag key={name} color="green">
                  {name}
                </Tag>
              ))
            : null,
      }}
      rowActions={(row) => (
        <Space size={0}>
          {mayEdit && (
            <RowButton
              title={t('monitor.led.edit')}
              icon={<LayoutOutlined />}
              testId="program-edit"
              onClick={() => void navigate(editProgramPath(row.id))}
            />
          )}
          {mayAdd && (
            <RowButton
              title={t('monitor.led.copy')}
              icon={<CopyOutlined />}
              testId="program-copy"
              onClick={() => void copy(row)}
            />
          )}
          <RowButton
            title={t('monitor.led.sendProgram')}
            icon={<SendOutlined />}
            testId="program-send"
            onClick={() => void navigate(setProgramPath(row.id))}
          />
        </Space>
      )}
    />
  );
}
