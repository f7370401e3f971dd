import type { PublicTraceSensors } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { thingModelOf } from '../../iot/device/device-directory';
import { telemetryQueryRepo } from '../../iot/telemetry/telemetry-query.repo';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';

/** The factors the page sums up (docs/iot.md factors): interval rain, air temperature, soil moisture. */
const FACTORS = { rainfall: 'rainfall', temperature: 'airTemperature', soil: 'soilMoisture' };

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * What the plot's devices recorded between sowing and harvest, from the IoT engine's stored
 * telemetry through its own aggregate query (telemetryQueryRepo.aggregate: the hourly rollup for
 * whole hours, readings at the edges), month buckets in the tenant's time zone, combined here:
 * rainfall is each rain gauge's total, averaged over the gauges (two gauges on one plot measure
 * the same rain); temperature its min, max and reading-weighted mean; soil moisture the
 * reading-weighted mean over every depth. Runs in the tenant's transaction.
 */
export async function plotSensors(
  sql: Sql,
  deviceIds: string[],
  from: Date,
  to: Date,
): Promise<PublicTraceSensors> {
  const summary: PublicTraceSensors = {
    source: 'sensor',
    from: from.toISOString(),
    to: to.toISOString(),
    devices: deviceIds.length,
    rainfall: null,
    temperature: null,
    soilMoisture: null,
  };
  if (deviceIds.length === 0 || to <= from) return summary;
  const devices = await telemetryQueryRepo.devices(sql, deviceIds);
  const factorOfKey = new Map<string, string>();
  for (const device of devices)
    for (const property of thingModelOf(device.thing_model).properties)
      if (property.type === 'number' && property.factor)
        if (Object.values(FACTORS).includes(property.factor))
          factorOfKey.set(property.key, property.factor);
  if (factorOfKey.size === 0) return summary;
  const rows = await telemetryQueryRepo.aggregate(
    sql,
    devices.map((device) => device.id),
    [...factorOfKey.keys()],
    from,
    to,
    'month',
    await tenantTimeZone(sql),
  );
  const rainByDevice = new Map<string, { total: number; readings: number }>();
  const temperature = { min: Infinity, max: -Infinity, sum: 0, readings: 0 };
  const soil = { sum: 0, readings: 0 };
  for (const row of rows) {
    const factor = factorOfKey.get(row.key);
    const count = Number(row.count);
    if (!count || row.sum === null) continue;
    const sum = Number(row.sum);
    if (factor === FACTORS.rainfall) {
      const gauge = rainByDevice.get(row.device_id) ?? { total: 0, readings: 0 };
      gauge.total += sum;
      gauge.readings += count;
      rainByDevice.set(row.device_id, gauge);
    } else if (factor === FACTORS.temperature) {
      temperature.min = Math.min(temperature.min, Number(row.min));
      temperature.max = Math.max(temperature.max, Number(row.max));
      temperature.sum += sum;
      temperature.readings += count;
    } else if (factor === FACTORS.soil) {
      soil.sum += sum;
      soil.readings += count;
    }
  }
  if (rainByDevice.size > 0) {
    const gauges = [...rainByDevice.values()];
    summary.rainfall = {
      source: 'sensor',
      totalMm: round1(gauges.reduce((all, gauge) => all + gauge.total, 0) / gauges.length),
      readings: gauges.reduce((all, gauge) => all + gauge.readings, 0),
    };
  }
  if (temperature.readings > 0)
    summary.temperature = {
      source: 'sensor',
      min: round1(temperature.min),
      mean: round1(temperature.sum / temperature.readings),
      max: round1(temperature.max),
      readings: temperature.readings,
    };
  if (soil.readings > 0)
    summary.soilMoisture = {
      source: 'sensor',
      mean: round1(soil.sum / soil.readings),
      readings: soil.readings,
    };
  return summary;
}
