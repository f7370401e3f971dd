import { CameraOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import {
  DEVICE_FILE_MAX_BYTES,
  TOAST_MS,
  TRACE_PHOTO_CALLS,
  TRACE_PHOTOS_MAX,
  type TracePhoto,
} from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Empty, Flex, Popconfirm, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { AuthImage } from '../../monitor/insect/AuthImage';

const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/bmp,image/webp';

/** Whose photos: a base or a growth record, by their calls. */
export const PHOTO_OWNERS = {
  base: { list: TRACE_PHOTO_CALLS.baseList, upload: TRACE_PHOTO_CALLS.baseUpload },
  growthRecord: { list: TRACE_PHOTO_CALLS.growthList, upload: TRACE_PHOTO_CALLS.growthUpload },
} as const;
export type PhotoOwner = keyof typeof PHOTO_OWNERS;

const photosKey = (owner: PhotoOwner, id: string) => ['trace', 'photos', owner, id] as const;

/**
 * A base's or growth record's photos as thumbnails in a side panel: added from files the user
 * picks (the server checks each is an image of at most 10 MB) and deleted by whoever may edit
 * the row; everyone who sees the row sees its photos.
 */
export function TracePhotosPanel({
  owner,
  id,
  name,
  editable,
  onClose,
}: {
  owner: PhotoOwner;
  id: string | undefined;
  name: string;
  editable: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const calls = PHOTO_OWNERS[owner];
  const photos = useQuery({
    queryKey: photosKey(owner, id ?? ''),
    queryFn: () => http.get<TracePhoto[]>(calls.list, { params: { id } }),
    enabled: id !== undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: photosKey(owner, id ?? '') });

  const send = async (file: File) => {
    if (file.size > DEVICE_FILE_MAX_BYTES) {
      feedback.error(
        t('trace.homeMode.photos.tooLarge', { max: DEVICE_FILE_MAX_BYTES / 1024 / 1024 }),
        TOAST_MS.error / 1000,
      );
      return;
    }
    setBusy(true);
    try {
      await http.post(calls.upload, { params: { id, fileName: file.name }, raw: file });
      feedback.success(t('trace.homeMode.photos.added'), TOAST_MS.success / 1000);
      await refresh();
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const remove = async (photo: TracePhoto) => {
    await http.post(TRACE_PHOTO_CALLS.delete, { data: { id: photo.id } });
    feedback.success(t('trace.homeMode.photos.deleted'), TOAST_MS.success / 1000);
    await refresh();
  };

  const list = photos.data ?? [];
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      width={560}
      title={t('trace.homeMode.photos.title', { name })}
      extra={
        editable && (
          <Upload
            accept={IMAGE_TYPES}
            multiple
            showUploadList={false}
            beforeUpload={(file) => {
              void send(file);
              return false;
            }}
          >
            <Button
              type="primary"
              icon={<UploadOutlined />}
              loading={busy}
              disabled={list.length >= TRACE_PHOTOS_MAX}
              data-testid="trace-photo-upload"
            >
              {t('trace.homeMode.photos.upload')}
            </Button>
          </Upload>
        )
      }
    >
      <Flex vertical gap={12} data-testid="trace-photos">
        {editable && (
          <Typography.Text type="secondary">
            {t('trace.homeMode.photos.hint', {
              max: DEVICE_FILE_MAX_BYTES / 1024 / 1024,
              count: TRACE_PHOTOS_MAX,
            })}
          </Typography.Text>
        )}
        {photos.isSuccess && list.length === 0 && (
          <Empty description={t('trace.homeMode.photos.empty')} />
        )}
        <Flex wrap gap={12}>
          {list.map((photo) => (
            <figure key={photo.id} style={{ margin: 0, width: 160 }} data-testid="trace-photo">
              <AuthImage
                url={TRACE_PHOTO_CALLS.download}
                id={photo.id}
                alt={photo.fileName}
                width={160}
                height={120}
                testId="trace-photo-image"
              />
              <Flex align="center" justify="space-between" gap={4}>
                <Typography.Text ellipsis={{ tooltip: photo.fileName }} style={{ fontSize: 12 }}>
                  {photo.fileName}
                </Typography.Text>
                {editable && (
                  <Popconfirm
                    title={t('trace.homeMode.photos.deleteConfirm')}
                    onConfirm={() => remove(photo)}
                    okButtonProps={{ danger: true }}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('trace.homeMode.photos.delete')}
                      data-testid="trace-photo-delete"
                    />
                  </Popconfirm>
                )}
              </Flex>
            </figure>
          ))}
        </Flex>
      </Flex>
    </Drawer>
  );
}

/** The row action that opens a row's photos. */
export function TracePhotosButton({ name, onOpen }: { name: string; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      type="link"
      icon={<CameraOutlined />}
      data-testid="trace-photos-open"
      aria-label={t('trace.homeMode.photos.buttonOf', { name })}
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
    >
      {t('trace.homeMode.photos.button')}
    </Button>
  );
}
