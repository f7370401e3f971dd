import {
  DEVICE_FILE_CALLS,
  INSECT_CALLS,
  type TrapPhotoDay,
  type TrapPhotos,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Badge, DatePicker, Empty, Flex, Modal, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { PanelFrame } from '../widgets/PanelFrame';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { AuthImage } from './AuthImage';
import { PhotoLabels } from './PhotoLabels';
import { photoClockText } from './photo-time';

const DAY = 'YYYY-MM-DD';

/**
 * A trap's gallery: the tray photos of a day (today in the district's time zone at first; the
 * calendar marks the days with photos), each opened large with the species counted on it, and
 * the day's counts summed per species.
 */
export function InsectGalleryPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [day, setDay] = useState<string | undefined>();
  const [openId, setOpenId] = useState<string | undefined>();
  const photos = useQuery({
    queryKey: ['insect', 'photos', device.id, day],
    queryFn: ({ signal }) =>
      http.get<TrapPhotos>(INSECT_CALLS.photos, { params: { deviceId: device.id, day }, signal }),
  });
  const days = useQuery({
    queryKey: ['insect', 'photoDays', device.id],
    queryFn: ({ signal }) =>
      http.get<TrapPhotoDay[]>(INSECT_CALLS.photoDays, { params: { deviceId: device.id }, signal }),
  });
  const withPhotos = new Map((days.data ?? []).map((one) => [one.day, one.photos]));
  const shown = photos.data;
  const open = shown?.photos.find((photo) => photo.id === openId);

  return (
    <PanelFrame
      title={t('monitor.insect.gallery')}
      testId="widget-insectGallery"
      extra={
        <DatePicker
          data-testid="gallery-day"
          allowClear={false}
          value={shown ? dayjs(shown.day, DAY) : null}
          onChange={(value) => value && setDay(value.format(DAY))}
          disabledDate={(value) => value.isAfter(dayjs().add(1, 'day'), 'day')}
          cellRender={(current, info) => {
            if (info.type !== 'date' || !dayjs.isDayjs(current)) return info.originNode;
            const count = withPhotos.get(current.format(DAY));
            return count ? (
              <Badge dot offset={[-2, 2]} title={t('monitor.insect.photosOfDay', { count })}>
                {info.originNode}
              </Badge>
            ) : (
              info.originNode
            );
          }}
        />
      }
    >
      <Spin spinning={photos.isFetching}>
        <div data-testid="gallery-photos" data-day={shown?.day ?? ''}>
          {shown && shown.photos.length === 0 && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('monitor.insect.noPhotosOfDay')}
            />
          )}
          <Flex wrap gap={8}>
            {shown?.photos.map((photo) => (
              <button
                key={photo.id}
                type="button"
                data-testid="gallery-photo"
                data-file={photo.fileName}
                data-labels={photo.labels.length}
                onClick={() => setOpenId(photo.id)}
                style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer' }}
                aria-label={t('monitor.insect.openPhoto', {
                  time: photoClockText(photo.takenAt, shown.timeZone),
                })}
              >
                <AuthImage
                  url={DEVICE_FILE_CALLS.download}
                  id={photo.id}
                  alt={photo.fileName}
                  width={120}
                  height={90}
                />
                <Flex justify="space-between" style={{ fontSize: 12, marginTop: 2 }}>
                  <span>{photoClockText(photo.takenAt, shown.timeZone)}</span>
                  {photo.labels.length > 0 && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('monitor.insect.counted', {
                        count: photo.labels.reduce((sum, label) => sum + label.insectCount, 0),
                      })}
                    </Typography.Text>
                  )}
                </Flex>
              </button>
            ))}
          </Flex>
        </div>
      </Spin>
      <div data-testid="species-totals" style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">{t('monitor.insect.dayTotals')} </Typography.Text>
        {shown && shown.speciesTotals.length === 0 && (
          <Typography.Text type="secondary">{t('monitor.insect.noLabels')}</Typography.Text>
        )}
        {shown?.speciesTotals.map((total) => (
          <Tag key={total.speciesId} data-testid="species-total" data-species={total.nameZh}>
            {total.nameZh} × {total.insectCount}
          </Tag>
        ))}
      </div>
      <Modal
        open={open !== undefined}
        onCancel={() => setOpenId(undefined)}
        footer={null}
        width={960}
        title={open ? `${device.deviceName} · ${open.fileName}` : ''}
        destroyOnHidden
      >
        {open && (
          <Flex gap={16} wrap data-testid="photo-large">
            <AuthImage
              url={DEVICE_FILE_CALLS.download}
              id={open.id}
              alt={open.fileName}
              width={640}
              height={480}
              style={{ maxWidth: '100%', height: 'auto', imageRendering: 'auto' }}
            />
            <div style={{ flex: 1, minWidth: 240 }}>
              <PhotoLabels photo={open} onChanged={() => photos.refetch()} />
            </div>
          </Flex>
        )}
      </Modal>
    </PanelFrame>
  );
}
