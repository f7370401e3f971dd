import {
  areaOf,
  iotDeviceEntity,
  type AreaDevicePage,
  type AreaDeviceQuery,
  type AreaDeviceRow,
} from '@shuili/contract';
import type { Database } from '../../db/database';
import { DataFieldService } from '../../entity/data-field.service';
import { readableFields, type FieldGrants } from '../../entity/field-grants';
import type { AuthContext } from '../../http/request-context';
import { thingModelOf } from '../iot/device/device-directory';
import { AREA_COMPUTED_VALUES } from './area-computed-values';
import { areaDeviceRepo, type AreaDeviceDbRow, type AreaDeviceFilter } from './area-device.repo';

/** The query after validation (defaults applied). */
export type CheckedAreaDeviceQuery = Omit<AreaDeviceQuery, 'currentPage' | 'pageSize'> & {
  currentPage: number;
  pageSize: number;
};

const dataFields = new DataFieldService();

/**
 * The area device list: an area's devices (its products' device kinds) in the caller's device
 * scope, with their zone, alarm and every live value, the filtered set's counts, and each
 * product's thing model once. A device's fields follow the device list's rules: its data
 * permissions (menu iotdevice), and the alarm and live values only for roles that may read
 * alarms and telemetry (the entity's readGrant), so no screen hands over what another refuses.
 */
export class AreaDeviceService {
  constructor(
    private readonly db: Database,
    private readonly grants: FieldGrants,
  ) {}

  /** The list's index (once per start, one node at a time). */
  ensureIndexes(): Promise<void> {
    return this.db.withLock('monitor:area-device:indexes', (sql) =>
      areaDeviceRepo.ensureIndexes(sql),
    );
  }

  async page(auth: AuthContext, query: CheckedAreaDeviceQuery): Promise<AreaDevicePage> {
    // The schema admits declared codes only.
    const area = areaOf(query.area)!;
    const filter: AreaDeviceFilter = {
      kinds: area.kinds,
      zoneId: query.zoneId,
      projectId: query.projectId,
      health: query.status,
      online: query.online === undefined ? undefined : query.online === 'true',
      text: query.text || undefined,
    };
    const { currentPage, pageSize } = query;
    return this.db.tenant(auth, async (sql) => {
      const readable = await readableFields(
        iotDeviceEntity,
        await dataFields.visible(sql, auth.activeRole, iotDeviceEntity.menuCode),
        auth,
        this.grants,
      );
      const may = (field: string) => !readable || readable.has(field);
      const withAlarms = may('alarmLevel');
      const withValues = may('keyValues');
      const rows = await areaDeviceRepo.page(
        sql,
        filter,
        { limit: pageSize, offset: (currentPage - 1) * pageSize },
        withAlarms,
      );
      const totals = rows[0] ?? (await areaDeviceRepo.counts(sql, filter, withAlarms));
      const productIds = [...new Set(rows.map((row) => row.product_id))];
      const products = (await areaDeviceRepo.products(sql, productIds)).map((product) => ({
        id: product.id,
        productName: product.product_name,
        thingModel: thingModelOf(product.thing_model),
      }));
      const list = rows.map((row) => deviceOf(row, may));
      if (withValues) {
        // Numbers, integers, enums and booleans: what cards, columns and widgets draw.
        const shown = new Map(
          products.map((product) => [
            product.id,
            new Set(
              product.thingModel.properties
                .filter((property) => property.type !== 'string')
                .map((property) => property.key),
            ),
          ]),
        );
        const byId = new Map(list.map((device) => [device.id, device]));
        for (const device of list) {
          device.values = {};
          device.valueTimes = {};
        }
        const latest = await areaDeviceRepo.latest(sql, auth.tenantId, [...byId.keys()]);
        for (const reading of latest) {
          const device = byId.get(reading.device_id)!;
          if (!shown.get(device.productId)?.has(reading.key)) continue;
          device.values![reading.key] = reading.value ?? reading.text_value;
          device.valueTimes![reading.key] = reading.ts;
        }
        // What the server computes from the stored readings (a flood station's rolling rain).
        const computing = AREA_COMPUTED_VALUES[area.code];
        if (computing && byId.size > 0) {
          const at = new Date();
          for (const [deviceId, values] of await computing(sql, [...byId.keys()], at)) {
            const device = byId.get(deviceId)!;
            for (const [key, value] of Object.entries(values)) {
              device.values![key] = value;
              device.valueTimes![key] = at.toISOString();
            }
          }
        }
      }
      const total = Number(totals.total);
      const online = Number(totals.online_count);
      return {
        list,
        total,
        currentPage,
        pageSize,
        counts: {
          online,
          offline: total - online,
          fault: Number(totals.fault_count),
          ...(withAlarms ? { alarm: Number(totals.alarm_count ?? 0) } : {}),
        },
        products,
      };
    });
  }
}

/** A row as the API answers it; fields the caller may not read are left out or blanked. */
function deviceOf(row: AreaDeviceDbRow, may: (field: string) => boolean): AreaDeviceRow {
  const device: AreaDeviceRow = {
    id: row.id,
    deviceNo: row.device_no,
    deviceName: row.device_name,
    productId: row.product_id,
    projectId: may('projectId') ? row.project_id : null,
    projectName: may('projectId') ? row.project_name : null,
    zoneId: may('zoneId') ? row.zone_id : null,
    zoneName: may('zoneId') ? row.zone_name : null,
    lat: may('lat') ? row.lat : null,
    lng: may('lng') ? row.lng : null,
    status: row.status,
    online: row.online,
    lastSeen: may('lastSeen') ? row.last_seen : null,
  };
  if (may('alarmLevel')) device.alarmLevel = row.alarm_level;
  return device;
}
