import { defineEntity, f, label } from '../../entity-kit';
import { PROTOCOLS } from './iot-dicts';
import { IDENTIFIER_PATTERN } from './targets';

/**
 * Products: a kind of device with its thing model. The thing model is edited on its own page
 * (/IOTproductShowEdit/{serialNo}, calls queryThingModel / updateThingModel), never by the
 * generic form, list or export.
 */
export const iotProductEntity = defineEntity({
  name: 'IotProduct',
  title: label('Products', '产品管理', '產品管理'),
  table: 'iot_product',
  path: '/api/iot/product',
  route: '/IOTproductList',
  menuCode: 'iotproduct',
  scope: 'tenant',
  fields: {
    serialNo: f.text({
      label: label('Product no.', '产品编号', '產品編號'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
      pattern: IDENTIFIER_PATTERN,
    }),
    productName: f.text({
      label: label('Product name', '产品名称', '產品名稱'),
      required: true,
      max: 128,
      sortable: true,
    }),
    deviceKind: f.dict({
      label: label('Device kind', '设备类型', '設備類型'),
      dictType: 'device_kind',
      required: true,
    }),
    protocol: f.enumOf({
      label: label('Protocol', '接入协议', '接入協定'),
      options: PROTOCOLS,
      required: true,
      defaultValue: 'mqtt_json',
    }),
    description: f.textarea({ label: label('Description', '描述', '描述'), max: 500 }),
    status: f.status(),
    thingModel: f.json({
      label: label('Thing model', '物模型', '物模型'),
      defaultValue: '{"properties":[],"events":[],"commands":[]}',
    }),
  },
});

/** The product's page of its thing model (spec /IOTproductShowEdit/{serialNo}). */
export const iotProductThingModelRoute = (serialNo: string) =>
  `/IOTproductShowEdit/${encodeURIComponent(serialNo)}`;

export const THING_MODEL_CALLS = {
  query: '/api/iot/product/queryThingModel',
  update: '/api/iot/product/updateThingModel',
} as const;
