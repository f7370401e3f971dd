import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_PATH, TRACE_PRODUCER_TARGET, TRACE_SCREENS } from './trace-targets';

/**
 * A base (farm) of a producer: the village is the coarse place the public page shows; the
 * address and coordinates stay in the console.
 */
export const traceBaseEntity = defineEntity({
  name: 'TraceBase',
  title: label('Bases', '基地管理', '基地管理'),
  table: 'trace_base',
  path: `${TRACE_PATH}/base`,
  route: TRACE_SCREENS.base,
  menuCode: 'traceBase',
  scope: 'tenant',
  fields: {
    baseName: f.text({
      label: label('Base', '基地名称', '基地名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    producerId: f.ref({
      label: label('Producer', '生产主体', '生產主體'),
      required: true,
      target: TRACE_PRODUCER_TARGET,
    }),
    village: f.text({
      label: label('Village', '所在村', '所在村'),
      required: true,
      max: 64,
      sortable: true,
    }),
    address: f.text({
      label: label('Address', '详细地址', '詳細地址'),
      max: 255,
      list: false,
      search: undefined,
    }),
    longitude: f.decimal({
      label: label('Longitude', '经度', '經度'),
      min: -180,
      max: 180,
      precision: 6,
    }),
    latitude: f.decimal({
      label: label('Latitude', '纬度', '緯度'),
      min: -90,
      max: 90,
      precision: 6,
    }),
    areaMu: f.decimal({
      label: label('Area (mu)', '面积(亩)', '面積(畝)'),
      min: 0,
      max: 10_000_000,
      precision: 2,
    }),
    description: f.textarea({ label: label('Description', '基地简介', '基地簡介'), max: 2000 }),
    // File keys of the base's photos (the files module stores them): not part of the generic form.
    photos: f.json({ label: label('Photos', '照片', '照片') }),
    status: f.status(),
  },
});
