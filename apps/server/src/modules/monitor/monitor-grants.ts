import {
  AREA_DEVICE_CALLS,
  AREA_SETTING_CALLS,
  entityCalls,
  FERTIGATION_CALLS,
  fertigationProgramEntity,
  fertilizerRecipeEntity,
  IRRIGATION_CALLS,
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
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
];
