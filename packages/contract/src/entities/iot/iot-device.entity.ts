import { defineEntity, f, label } from '../../entity-kit';
import { ZONE_TARGET } from '../admin/targets';
import { PRODUCT_TARGET, PROJECT_TARGET } from './targets';

/**
 * Devices: one product each, installed in a project and zone at a place. `deviceNo` is part of
 * its MQTT identity and topics (DEVICE_NO_PATTERN). `status` is the spec's health flag (0
 * normal, anything else a fault code), not an enable switch; `online` and `lastSeen` are kept by
 * ingestion.
 */
export const iotDeviceEntity = defineEntity({
  name: 'IotDevice',
  title: label('Devices', '设备管理', '設備管理'),
  table: 'iot_device',
  path: '/api/iot/device',
  route: '/iot/deviceList',
  menuCode: 'iotdevice',
  scope: 'tenant',
  fields: {
    deviceNo: f.text({
      label: label('Device no.', '设备编号', '設備編號'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
      pattern: { source: '^[A-Za-z0-9_.-]+$', key: 'validation.identifier' },
    }),
    deviceName: f.text({
      label: label('Device name', '设备名称', '設備名稱'),
      required: true,
      max: 128,
      sortable: true,
    }),
    productId: f.ref({
      label: label('Product', '所属产品', '所屬產品'),
      required: true,
      target: PRODUCT_TARGET,
    }),
    projectId: f.ref({ label: label('Project', '所属项目', '所屬專案'), target: PROJECT_TARGET }),
    zoneId: f.ref({ label: label('Zone', '所属区域', '所屬區域'), target: ZONE_TARGET }),
    lat: f.decimal({
      label: label('Latitude', '纬度', '緯度'),
      min: -90,
      max: 90,
      precision: 6,
      list: false,
    }),
    lng: f.decimal({
      label: label('Longitude', '经度', '經度'),
      min: -180,
      max: 180,
      precision: 6,
      list: false,
    }),
    installAddress: f.text({
      label: label('Install address', '安装地址', '安裝地址'),
      max: 255,
      list: false,
    }),
    installDate: f.datetime({
      label: label('Install date', '安装日期', '安裝日期'),
      list: false,
    }),
    installer: f.text({ label: label('Installer', '安装人员', '安裝人員'), max: 64, list: false }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.int({
      label: label('Health (0 normal)', '设备状态(0正常)', '設備狀態(0正常)'),
      required: true,
      defaultValue: 0,
      max: 9999,
      search: 'eq',
    }),
    online: f.bool({
      label: label('Online', '在线', '在線'),
      readOnly: true,
      defaultValue: false,
      search: 'eq',
    }),
    lastSeen: f.datetime({
      label: label('Last seen', '最后通信', '最後通訊'),
      readOnly: true,
    }),
  },
});

export const iotDevicePageRoute = (id: string) => `/iot/device/${encodeURIComponent(id)}`;
