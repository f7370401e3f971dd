import {
  TELEMETRY_CALLS,
  type CommandView,
  type DeviceControl,
  type IngestStat,
  type PageResult,
  type SendCommandInput,
  type TelemetryLatestItem,
  type ThingModel,
} from '@shuili/contract';
import { http } from '../../../lib/http';

/** The device row as the device list answers it (reference labels beside their ids). */
export interface DeviceRow {
  id: string;
  deviceNo: string;
  deviceName: string;
  productId: string;
  productIdLabel?: string | null;
  projectIdLabel?: string | null;
  zoneIdLabel?: string | null;
  lat: number | null;
  lng: number | null;
  installAddress?: string | null;
  status: number;
  online: boolean;
  lastSeen: string | null;
}

/** What the device page opens with: the device, its product and the product's thing model. */
export interface DeviceDetail {
  device: DeviceRow;
  serialNo: string;
  productName: string;
  thingModel: ThingModel;
}

export interface AlarmRow {
  id: string;
  ruleIdLabel?: string | null;
  propertyKey: string;
  level: string;
  value: number | null;
  threshold: number | null;
  startedAt: string;
  clearedAt: string | null;
  state: 'open' | 'cleared';
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  ackComment: string | null;
}

export const deviceApi = {
  detail: (id: string, signal?: AbortSignal) =>
    http.get<DeviceDetail>('/api/iot/device/queryDeviceDetail', { params: { id }, signal }),
  latest: (deviceId: string, signal?: AbortSignal) =>
    http.get<TelemetryLatestItem[]>(TELEMETRY_CALLS.latest, { params: { deviceId }, signal }),
  ingestStat: (deviceId: string, signal?: AbortSignal) =>
    http.get<IngestStat | null>(TELEMETRY_CALLS.ingestStat, {
      params: { deviceId },
      signal,
    }),
  control: (deviceId: string, signal?: AbortSignal) =>
    http.get<DeviceControl>('/api/iot/command/queryDeviceControl', {
      params: { deviceId },
      signal,
    }),
  commands: (deviceId: string, currentPage: number, pageSize: number, signal?: AbortSignal) =>
    http.get<PageResult<CommandView>>('/api/iot/command/queryCommand', {
      params: { deviceId, currentPage, pageSize },
      signal,
    }),
  send: (input: SendCommandInput) =>
    http.post<CommandView>('/api/iot/command/sendCommand', { data: input, quietFieldErrors: true }),
  alarms: (deviceId: string, state: string | undefined, signal?: AbortSignal) =>
    http.get<PageResult<AlarmRow>>('/api/iot/alarm/queryAlarmRecord', {
      params: { deviceId, state, currentPage: 1, pageSize: 50 },
      signal,
    }),
};
