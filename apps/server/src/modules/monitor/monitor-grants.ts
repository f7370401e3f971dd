import {
  AREA_DEVICE_CALLS,
  AREA_SETTING_CALLS,
  DEVICE_FILE_CALLS,
  entityCalls,
  FERTIGATION_CALLS,
  FLOOD_CALLS,
  fertigationProgramEntity,
  INSECT_CALLS,
  insectPhotoLabelEntity,
  insectSpeciesEntity,
  fertilizerRecipeEntity,
  IRRIGATION_CALLS,
  LED_CALLS,
  ledProgramEntity,
  rotationScheduleEntity,
  runoffEventEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
  VIDEO_CALLS,
  WEATHER_CALLS,
  MONITOR_REPORT_CALLS,
  WORKBENCH_CALLS,
} from '@shuili/contract';

/**
 * The monitoring calls the default operator role starts with (DEFAULT_ROLE_GRANTS spreads them):
 * what the area screens it is given (AreaDef.operatorScreens, the cross-area screens) need for
 * day-to-day work. Each monitoring feature appends its own calls here.
 */
export const MONITOR_OPERATOR_CALLS: readonly string[] = [
  // Area device lists and monitors.
  AREA_DEVICE_CALLS.query,
  // The workbench's operations overview (its sections still follow the alarm, command and
  // telemetry grants).
  WORKBENCH_CALLS.overview,
  // Data reports and their exports. Warnings and operation records are the alarm and command
  // entities' calls, granted already; configuration and regional management are not an
  // operator's screens (AreaDef.operatorScreens).
  MONITOR_REPORT_CALLS.query,
  MONITOR_REPORT_CALLS.export,
  // Area settings, read only: the widgets draw the dry-run level and the EC/pH bands.
  AREA_SETTING_CALLS.query,
  // Fertigation: run and stop programs, their history, the fertilizer drawn; recipes and
  // programs read only (editing them is configuration).
  FERTIGATION_CALLS.start,
  FERTIGATION_CALLS.stop,
  FERTIGATION_CALLS.runs,
  FERTIGATION_CALLS.fertilizerUse,
  entityCalls(fertilizerRecipeEntity).query,
  entityCalls(fertigationProgramEntity).query,
  // The weather stations' daily ET0 beside rainfall.
  WEATHER_CALLS.dailyEt0,
  // Flood stations' rolling rain, rainstorm level and water level; their thresholds read only
  // (changing them is configuration).
  FLOOD_CALLS.status,
  FLOOD_CALLS.thresholds,
  // Irrigation: batch control of a zone or valve group, stopping a rotation under way, water
  // delivered and open hours, the runs of schedules and rules; groups, schedules and rules read
  // only (editing them is configuration).
  IRRIGATION_CALLS.batchValveControl,
  IRRIGATION_CALLS.stopRotation,
  IRRIGATION_CALLS.waterDelivered,
  IRRIGATION_CALLS.scheduleRuns,
  entityCalls(valveGroupEntity).query,
  entityCalls(rotationScheduleEntity).query,
  entityCalls(soilMoistureRuleEntity).query,
  // Surface runoff: the plots' events (their panel, the report's list and its export).
  entityCalls(runoffEventEntity).query,
  entityCalls(runoffEventEntity).exportXlsx,
  // Insect traps: their galleries (the photos' bytes are the device files'), labelling species
  // counts on photos, and the species catalogue read only (editing it is an administrator's).
  INSECT_CALLS.photos,
  INSECT_CALLS.photoDays,
  INSECT_CALLS.latestPhotos,
  INSECT_CALLS.speciesPicture,
  DEVICE_FILE_CALLS.download,
  entityCalls(insectSpeciesEntity).query,
  entityCalls(insectPhotoLabelEntity).query,
  entityCalls(insectPhotoLabelEntity).add,
  entityCalls(insectPhotoLabelEntity).update,
  entityCalls(insectPhotoLabelEntity).delete,
  // Cameras: the live grid (queryAllCamera is a default grant of the device screens) and its
  // snapshots into the camera devices' images; managing cameras is an administrator's.
  VIDEO_CALLS.snapshot,
  // LED screens: sending a program to screens and following the acknowledgements; programs
  // read only (editing them is an administrator's).
  entityCalls(ledProgramEntity).query,
  LED_CALLS.content,
  LED_CALLS.send,
  LED_CALLS.sends,
];
