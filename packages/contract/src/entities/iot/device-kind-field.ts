import { f, label } from '../../entity-kit';

/** The kind of the row's device, read from its product (null once the device is deleted). */
const DEVICE_KIND_SQL = `SELECT p.device_kind FROM iot_device d JOIN iot_product p ON p.id = d.product_id
  WHERE d.id = t.device_id`;

/**
 * A row's device kind, computed (never stored): an area's screens list the records of its
 * kinds only by a fixed filter `deviceKind=irrigation_valve,pump_station`, so a device that
 * changes product moves its history with it.
 */
export const deviceKindField = () =>
  f.dict({
    label: label('Device kind', '设备类型', '設備類型'),
    dictType: 'device_kind',
    readOnly: true,
    list: false,
    export: false,
    search: 'in',
    computed: DEVICE_KIND_SQL,
  });
