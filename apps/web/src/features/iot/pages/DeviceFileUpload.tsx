import {
  DEVICE_FILE_CALLS,
  DEVICE_FILE_MAX_BYTES,
  DEVICE_TARGET,
  iotDeviceFileEntity,
  type DeviceFileKind,
} from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Modal, Popconfirm, Space, Upload } from 'antd';
import type { LabeledValue } from '../../../resource/form-values';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { RefSelect } from '../../../resource/RefSelect';
import { downloadFile, saveFile } from '../../../resource/download-file';
import { resourceKey } from '../../../resource/use-resource';
import type { ResourceRow } from '../../../resource/resource-row';

const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/bmp,image/webp';
const TOAST_SECONDS = 3;

/** Uploads one file or image of a chosen device (raw bytes; the server checks the content). */
export function DeviceFileUpload({ kind }: { kind: DeviceFileKind }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [device, setDevice] = useState<LabeledValue | undefined>();
  const [file, setFile] = useState<File | undefined>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setFile(undefined);
  };
  const send = async () => {
    if (!device || !file) return;
    if (file.size > DEVICE_FILE_MAX_BYTES) {
      feedback.error(t('iot.pages.tooLarge', { max: DEVICE_FILE_MAX_BYTES / 1024 / 1024 }), 5);
      return;
    }
    setBusy(true);
    try {
      await http.post(DEVICE_FILE_CALLS.upload, {
        params: { deviceId: String(device.value), fileName: file.name, fileKind: kind },
        raw: file,
      });
      feedback.success(t('iot.pages.uploaded'), TOAST_SECONDS);
      await queryClient.invalidateQueries({ queryKey: resourceKey(iotDeviceFileEntity) });
      close();
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button data-testid="device-file-upload" onClick={() => setOpen(true)}>
        {t('iot.pages.upload')}
      </Button>
      <Modal
        open={open}
        title={kind === 'image' ? t('iot.pages.uploadImage') : t('iot.pages.uploadFile')}
        okText={t('iot.pages.upload')}
        cancelText={t('resource.cancel')}
        okButtonProps={{ disabled: !device || !file, loading: busy }}
        onOk={() => void send()}
        onCancel={close}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('iot.pages.device')} required>
            <RefSelect
              target={DEVICE_TARGET}
              value={device ?? null}
              onChange={(value) => setDevice(Array.isArray(value) ? value[0] : value)}
              placeholder={t('resource.typeToSearch')}
            />
          </Form.Item>
          <Form.Item label={t('iot.pages.file')} required extra={t('iot.pages.limit')}>
            <Upload
              accept={kind === 'image' ? IMAGE_TYPES : undefined}
              maxCount={1}
              fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
              beforeUpload={(chosen) => {
                setFile(chosen);
                // Held here and sent on OK, as raw bytes.
                return false;
              }}
              onRemove={() => setFile(undefined)}
            >
              <Button>{t('iot.pages.choose')}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** A device file's row actions: download it, delete it. */
export function DeviceFileActions({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const download = async () => {
    try {
      saveFile(await downloadFile(DEVICE_FILE_CALLS.download, { id: String(row.id) }, () => {}));
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : String(error), 5);
    }
  };
  const remove = async () => {
    try {
      await http.post(DEVICE_FILE_CALLS.remove, { params: { id: String(row.id) } });
      feedback.success(t('resource.deleted', { count: 1 }), TOAST_SECONDS);
      await queryClient.invalidateQueries({ queryKey: resourceKey(iotDeviceFileEntity) });
    } catch {
      // The HTTP client has shown the server's message.
    }
  };
  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={() => void download()}>
        {t('iot.pages.download')}
      </Button>
      <Popconfirm
        title={t('iot.pages.deleteConfirm')}
        okText={t('resource.delete')}
        cancelText={t('resource.cancel')}
        onConfirm={() => void remove()}
      >
        <Button type="link" size="small" danger>
          {t('resource.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
