import type { RefTarget } from '../../entity-kit';

/** The insect area's own API: its entities' generic calls and the gallery calls. */
export const INSECT_PATH = '/api/monitor/insect';

/** Where the species catalogue is edited (spec §2 /insectSituationMonitor/insectImageIntroduction). */
export const INSECT_CATALOGUE_SCREEN = '/insectSituationMonitor/insectImageIntroduction';

/** Where photos are labelled: the trap's gallery beside its card on the device list. */
export const INSECT_DEVICE_SCREEN = '/insectSituationMonitor/insectDeviceList';

/** What a photo's labels refer to; apart from the entities (no import cycles). */
export const INSECT_SPECIES_TARGET: RefTarget = {
  table: 'monitor_insect_species',
  labelColumn: 'name_zh',
  labelField: 'nameZh',
  queryCall: `${INSECT_PATH}/queryInsectSpecies`,
};

/** A device photo (iot_device_file) a label counts insects on. */
export const DEVICE_PHOTO_TARGET: RefTarget = {
  table: 'iot_device_file',
  labelColumn: 'original_name',
  labelField: 'originalName',
  queryCall: '/api/iot/file/queryIotDeviceFile',
};
