import { UploadOutlined } from '@ant-design/icons';
import { DEVICE_FILE_MAX_BYTES, INSECT_CALLS, insectSpeciesEntity } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { resourceKey } from '../../../resource/use-resource';

const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/bmp,image/webp';
const TOAST_SECONDS = 3;

/** Sets a species' picture from a file the user picks (the server checks it is an image). */
export function SpeciesPictureUpload({ speciesId, name }: { speciesId: string; name: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const send = async (file: File) => {
    if (file.size > DEVICE_FILE_MAX_BYTES) {
      feedback.error(t('iot.pages.tooLarge', { max: DEVICE_FILE_MAX_BYTES / 1024 / 1024 }), 5);
      return;
    }
    setBusy(true);
    try {
      await http.post(INSECT_CALLS.uploadSpeciesPicture, {
        params: { id: speciesId, fileName: file.name },
        raw: file,
      });
      feedback.success(t('monitor.insect.pictureSaved'), TOAST_SECONDS);
      await queryClient.invalidateQueries({ queryKey: resourceKey(insectSpeciesEntity) });
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload
      accept={IMAGE_TYPES}
      showUploadList={false}
      beforeUpload={(file) => {
        void send(file);
        return false;
      }}
    >
      <Button
        size="small"
        type="link"
        icon={<UploadOutlined />}
        loading={busy}
        data-testid="species-picture-upload"
        aria-label={t('monitor.insect.uploadPictureOf', { species: name })}
        onClick={(event) => event.stopPropagation()}
      >
        {t('monitor.insect.uploadPicture')}
      </Button>
    </Upload>
  );
}
