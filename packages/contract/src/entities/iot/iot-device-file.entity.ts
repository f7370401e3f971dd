import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from './targets';

export const DEVICE_FILE_KINDS = [
  { value: 'image', label: label('Image', '图片', '圖片') },
  { value: 'file', label: label('File', '文件', '檔案') },
] as const;
export type DeviceFileKind = (typeof DEVICE_FILE_KINDS)[number]['value'];

/**
 * Files and images of devices (spec /wenjianList, /imageList). Rows are written by the upload
 * call, which stores the bytes through FileStorage; the storage key never leaves the server.
 */
export const iotDeviceFileEntity = defineEntity({
  name: 'IotDeviceFile',
  title: label('Device files', '设备文件', '設備檔案'),
  table: 'iot_device_file',
  path: '/api/iot/file',
  route: '/wenjianList',
  menuCode: 'devicefile',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      readOnly: true,
      target: DEVICE_TARGET,
    }),
    fileKind: f.enumOf({
      label: label('Kind', '类型', '類型'),
      readOnly: true,
      options: DEVICE_FILE_KINDS,
    }),
    originalName: f.text({
      label: label('File name', '文件名', '檔案名稱'),
      readOnly: true,
      sortable: true,
    }),
    contentType: f.text({
      label: label('Content type', '文件类型', '檔案類型'),
      readOnly: true,
      search: undefined,
    }),
    sizeKb: f.int({ label: label('Size (KB)', '大小(KB)', '大小(KB)'), readOnly: true }),
    storageKey: {
      ...f.text({ label: label('Storage key', '存储键', '儲存鍵'), readOnly: true, list: false }),
      search: undefined,
      export: false,
      writeOnly: true,
    },
    createdAt: f.datetime({
      label: label('Uploaded at', '上传时间', '上傳時間'),
      readOnly: true,
      search: 'range',
    }),
  },
});
