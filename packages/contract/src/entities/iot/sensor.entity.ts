import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET, FACTOR_TARGET, SENSOR_TEMPLATE_TARGET, THING_KEY } from './targets';

/** A kind of sensor: the factor it measures, its unit and range (spec /sensorTemplate). */
export const sensorTemplateEntity = defineEntity({
  name: 'SensorTemplate',
  title: label('Sensor templates', '传感器模板', '感測器範本'),
  table: 'iot_sensor_template',
  path: '/api/iot/sensortemplate',
  route: '/sensorTemplate',
  menuCode: 'sensortemplate',
  scope: 'tenant',
  fields: {
    templateCode: f.text({
      label: label('Template code', '模板编码', '範本編碼'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
      pattern: THING_KEY,
    }),
    templateName: f.text({
      label: label('Template name', '模板名称', '範本名稱'),
      required: true,
      max: 128,
    }),
    factorId: f.ref({
      label: label('Factor', '监测因子', '監測因子'),
      required: true,
      target: FACTOR_TARGET,
    }),
    unit: f.text({ label: label('Unit', '单位', '單位'), max: 16, search: undefined }),
    minValue: f.decimal({
      label: label('Minimum', '最小值', '最小值'),
      min: -1e9,
      max: 1e9,
      precision: 6,
    }),
    maxValue: f.decimal({
      label: label('Maximum', '最大值', '最大值'),
      min: -1e9,
      max: 1e9,
      precision: 6,
    }),
    manufacturer: f.text({ label: label('Manufacturer', '厂家', '廠商'), max: 128 }),
    description: f.textarea({ label: label('Description', '描述', '描述'), max: 500 }),
    status: f.status(),
  },
});

/** One sensor on a device: a template bound to the property key it reports (spec /sensorInstance). */
export const sensorInstanceEntity = defineEntity({
  name: 'SensorInstance',
  title: label('Sensors', '传感器实例', '感測器實例'),
  table: 'iot_sensor_instance',
  path: '/api/iot/sensorinstance',
  route: '/sensorInstance',
  menuCode: 'sensorinstance',
  scope: 'tenant',
  uniqueTogether: [['deviceId', 'propertyKey']],
  fields: {
    instanceName: f.text({
      label: label('Sensor name', '传感器名称', '感測器名稱'),
      required: true,
      max: 128,
    }),
    templateId: f.ref({
      label: label('Template', '传感器模板', '感測器範本'),
      required: true,
      target: SENSOR_TEMPLATE_TARGET,
    }),
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      required: true,
      target: DEVICE_TARGET,
    }),
    propertyKey: f.text({
      label: label('Property key', '属性标识', '屬性標識'),
      required: true,
      max: 64,
      pattern: THING_KEY,
    }),
    installDepthCm: f.int({
      label: label('Depth (cm)', '安装深度(cm)', '安裝深度(cm)'),
      max: 10_000,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});
