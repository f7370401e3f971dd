import { defineEntity, f, label } from '../../entity-kit';
import { CONTROLLER_TEMPLATE_TARGET, DEVICE_TARGET, THING_KEY } from './targets';

const CONTROL_KINDS = [
  { value: 'valve', label: label('Valve', '阀门', '閥門') },
  { value: 'pump', label: label('Pump', '水泵', '水泵') },
  { value: 'gate', label: label('Gate', '闸门', '閘門') },
  { value: 'fertigation', label: label('Fertigation', '水肥', '水肥') },
  { value: 'switch', label: label('Switch', '开关', '開關') },
  { value: 'screen', label: label('Screen', '显示屏', '顯示屏') },
] as const;

/** A kind of actuator: what it controls and the command that drives it (spec /controllerTemplate). */
export const controllerTemplateEntity = defineEntity({
  name: 'ControllerTemplate',
  title: label('Controller templates', '控制器模板', '控制器範本'),
  table: 'iot_controller_template',
  path: '/api/iot/controllertemplate',
  route: '/controllerTemplate',
  menuCode: 'controllertemplate',
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
    controlKind: f.enumOf({
      label: label('Controls', '控制类型', '控制類型'),
      options: CONTROL_KINDS,
      required: true,
      defaultValue: 'valve',
    }),
    commandKey: f.text({
      label: label('Command', '控制命令', '控制命令'),
      required: true,
      max: 64,
      pattern: THING_KEY,
    }),
    channels: f.int({
      label: label('Channels', '通道数', '通道數'),
      required: true,
      defaultValue: 1,
      min: 1,
      max: 64,
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
    description: f.textarea({ label: label('Description', '描述', '描述'), max: 500 }),
    status: f.status(),
  },
});

/** One actuator on a device: a template bound to a channel (spec /controllerInstance). */
export const controllerInstanceEntity = defineEntity({
  name: 'ControllerInstance',
  title: label('Controllers', '控制器实例', '控制器實例'),
  table: 'iot_controller_instance',
  path: '/api/iot/controllerinstance',
  route: '/controllerInstance',
  menuCode: 'controllerinstance',
  scope: 'tenant',
  uniqueTogether: [['deviceId', 'templateId', 'channel']],
  fields: {
    instanceName: f.text({
      label: label('Controller name', '控制器名称', '控制器名稱'),
      required: true,
      max: 128,
    }),
    templateId: f.ref({
      label: label('Template', '控制器模板', '控制器範本'),
      required: true,
      target: CONTROLLER_TEMPLATE_TARGET,
    }),
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      required: true,
      target: DEVICE_TARGET,
    }),
    channel: f.int({
      label: label('Channel', '通道', '通道'),
      required: true,
      defaultValue: 1,
      min: 1,
      max: 64,
    }),
    propertyKey: f.text({
      label: label('State property', '状态属性', '狀態屬性'),
      max: 64,
      pattern: THING_KEY,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});
