import { translate, type AreaReport, type Lang } from '@shuili/contract';
import type { ExportTable, ExportValue } from '../../export/export-renderer';
import { localTime } from '../../iot/telemetry/telemetry-export';

const COLUMNS = ['time', 'device', 'property', 'mean', 'min', 'max', 'total', 'count', 'unit'];

/**
 * The report as one sheet: first each series' statistics over the whole range (the time column
 * says "Statistics"), then its points in time order (bucket starts or reading times in the
 * tenant's zone). Values are numbers, so the spreadsheet can go on computing.
 */
export function areaReportTable(report: AreaReport, lang: Lang): ExportTable {
  const word = (key: string) =>
    translate(
      lang,
      ['mean', 'total', 'title', 'statistics'].includes(key)
        ? `monitor.report.column.${key}`
        : `iot.telemetry.column.${key}`,
    );
  const devices = new Map(report.devices.map((device) => [device.id, device]));
  const factors = new Map(report.factors.map((factor) => [factor.key, factor]));
  const deviceText = (id: string) => {
    const device = devices.get(id);
    if (!device) return id;
    return device.deviceName ? `${device.deviceName} (${device.deviceNo})` : device.deviceNo;
  };
  const rows: Array<Record<string, ExportValue>> = [];
  for (const series of report.series) {
    const factor = factors.get(series.key);
    rows.push({
      time: word('statistics'),
      device: deviceText(series.deviceId),
      property: factor?.name[lang] ?? series.key,
      mean: series.stats.mean,
      min: series.stats.min,
      max: series.stats.max,
      total: series.stats.total,
      count: series.stats.count,
      unit: factor?.unit ?? '',
    });
  }
  for (const series of report.series) {
    const factor = factors.get(series.key);
    const device = deviceText(series.deviceId);
    const property = factor?.name[lang] ?? series.key;
    series.at.forEach((at, index) => {
      rows.push({
        time: localTime(new Date(at), report.timeZone),
        device,
        property,
        mean: series.avg[index],
        min: series.min[index],
        max: series.max[index],
        total: series.total?.[index] ?? null,
        count: series.count[index],
        unit: factor?.unit ?? '',
      });
    });
  }
  return {
    title: word('title'),
    timeZone: report.timeZone,
    columns: COLUMNS.map((key) => ({ key, label: word(key) })),
    rows,
  };
}
