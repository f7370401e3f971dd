import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_AREA_DEVICES, TRACE_BASE_TARGET, TRACE_PATH, TRACE_SCREENS } from './trace-targets';

/**
 * A plot (地块) of a base: its outline as a GeoJSON Polygon in WGS 84 (one closed ring, checked
 * by the server), its area in mu (computed from the outline unless typed), soil, and the IoT
 * devices that serve it (link table trace_area_device): their readings during a planting are
 * the conditions the public page shows as sensor data.
 */
export const traceAreaEntity = defineEntity({
  name: 'TraceArea',
  title: label('Plots', '地块管理', '地塊管理'),
  table: 'trace_area',
  path: `${TRACE_PATH}/area`,
  route: TRACE_SCREENS.area,
  menuCode: 'traceArea',
  scope: 'tenant',
  uniqueTogether: [['baseId', 'areaName']],
  fields: {
    areaName: f.text({
      label: label('Plot', '地块名称', '地塊名稱'),
      required: true,
      max: 64,
      sortable: true,
    }),
    baseId: f.ref({
      label: label('Base', '所属基地', '所屬基地'),
      required: true,
      target: TRACE_BASE_TARGET,
    }),
    polygon: f.textarea({
      label: label('Outline (GeoJSON)', '地块边界(GeoJSON)', '地塊邊界(GeoJSON)'),
      max: 100_000,
    }),
    areaMu: f.decimal({
      label: label('Area (mu)', '面积(亩)', '面積(畝)'),
      min: 0,
      max: 10_000_000,
      precision: 2,
    }),
    soil: f.text({ label: label('Soil', '土壤类型', '土壤類型'), max: 64, search: undefined }),
    deviceIds: f.refs({
      label: label('IoT devices', '物联网设备', '物聯網設備'),
      target: TRACE_AREA_DEVICES,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});
