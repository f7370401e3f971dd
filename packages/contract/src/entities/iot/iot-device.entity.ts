import { TELEMETRY_CALLS } from '../../api/iot-telemetry';
import { defineEntity, entityCalls, f, label } from '../../entity-kit';
import type { ThingProperty } from '../../iot/thing-model';
import { ZONE_TARGET } from '../admin/targets';
import { locationFields } from './location-fields';
import { alarmRecordEntity } from './alarm-record.entity';
import { ALARM_LEVELS } from './alarm-rule.entity';
import { PRODUCT_TARGET, PROJECT_TARGET } from './targets';

/**
 * A device's alarm as every list shows it: the highest level of its alarms that still want
 * attention, open or not yet acknowledged (an alarm that cleared unseen still counts).
 */
const ALARM_LEVEL_SQL = `SELECT a.level FROM iot_alarm_record a
  WHERE a.device_id = t.id AND (a.state = 'open' OR a.acknowledged_at IS NULL)
  ORDER BY array_position(ARRAY['${ALARM_LEVELS.join("','")}'], a.level) DESC NULLS LAST LIMIT 1`;

/**
 * The device's key live values: the first measured (number) properties of its product's thing
 * model that it has reported, each with its declaration so the list formats it as the device
 * page does.
 */
export const KEY_VALUE_COUNT = 3;
const KEY_VALUES_SQL = `SELECT jsonb_agg(k.item ORDER BY k.n) FROM (
  SELECT p.n, jsonb_build_object('param', p.param, 'value', coalesce(to_jsonb(l.text_value), to_jsonb(l.value)), 'ts', l.ts) AS item
    FROM iot_product pr
   CROSS JOIN jsonb_array_elements(pr.thing_model->'properties') WITH ORDINALITY AS p(param, n)
    JOIN iot_telemetry_latest l ON l.tenant_id = t.tenant_id AND l.device_id = t.id AND l.key = p.param->>'key'
   WHERE pr.id = t.product_id AND p.param->>'type' = 'number'
   ORDER BY p.n LIMIT ${KEY_VALUE_COUNT}) k`;

/** One key value of a device row (keyValues). */
export interface DeviceKeyValue {
  param: ThingProperty;
  value: number | string | null;
  ts: string;
}

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
    ...locationFields(),
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
      label: label('Health', '设备状态', '設備狀態'),
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
    alarmLevel: f.enumOf({
      label: label('Alarm', '告警', '告警'),
      options: [
        { value: 'blue', label: label('Blue', '蓝色', '藍色') },
        { value: 'yellow', label: label('Yellow', '黄色', '黃色') },
        { value: 'orange', label: label('Orange', '橙色', '橙色') },
        { value: 'red', label: label('Red', '红色', '紅色') },
      ],
      readOnly: true,
      computed: ALARM_LEVEL_SQL,
      // An alarm: only roles that may read alarms see it (or filter by it).
      readGrant: entityCalls(alarmRecordEntity).query,
    }),
    keyValues: f.computedJson({
      label: label('Live values', '实时数据', '即時數據'),
      computed: KEY_VALUES_SQL,
      // Live readings: only roles that may read telemetry see them.
      readGrant: TELEMETRY_CALLS.latest,
    }),
  },
});

export const iotDevicePageRoute = (id: string) => `/iot/device/${encodeURIComponent(id)}`;
