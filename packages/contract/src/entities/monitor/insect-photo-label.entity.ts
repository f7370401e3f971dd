import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import {
  DEVICE_PHOTO_TARGET,
  INSECT_DEVICE_SCREEN,
  INSECT_PATH,
  INSECT_SPECIES_TARGET,
} from './insect-targets';

/**
 * How many insects of one species an operator counted on one trap photo. The photo's device is
 * the server's to fill (from the photo), so labels follow the device's zones and projects like
 * the photo does; a label goes with its photo, and a species still counted cannot be deleted.
 */
export const insectPhotoLabelEntity = defineEntity({
  name: 'InsectPhotoLabel',
  title: label('Species counts', '虫种计数', '蟲種計數'),
  table: 'monitor_insect_photo_label',
  path: INSECT_PATH,
  route: INSECT_DEVICE_SCREEN,
  menuCode: 'insectPhotoLabel',
  scope: 'tenant',
  operations: { status: false },
  uniqueTogether: [['speciesId', 'fileId']],
  fields: {
    fileId: f.ref({
      label: label('Photo', '照片', '照片'),
      required: true,
      createOnly: true,
      target: DEVICE_PHOTO_TARGET,
      onDelete: 'cascade',
    }),
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      readOnly: true,
      target: DEVICE_TARGET,
      onDelete: 'cascade',
    }),
    speciesId: f.ref({
      label: label('Species', '虫种', '蟲種'),
      required: true,
      target: INSECT_SPECIES_TARGET,
    }),
    insectCount: f.int({
      label: label('Count', '数量', '數量'),
      required: true,
      min: 0,
      max: 100_000,
    }),
  },
});
