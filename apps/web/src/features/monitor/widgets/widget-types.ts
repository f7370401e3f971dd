import type { AreaDef, ThingModel } from '@shuili/contract';

/** One device of an area as its screens show it: the row, its thing model and live values. */
export interface AreaDevice {
  id: string;
  deviceNo: string;
  deviceName: string;
  online: boolean;
  /** Spec health: 0 normal, anything else a fault code. */
  status: number;
  lastSeen: string | null;
  zoneId: string | null;
  zoneName: string | null;
  lat: number | null;
  lng: number | null;
  /** Highest alarm that still wants attention (blue … red), when the reader may see alarms. */
  alarmLevel: string | null;
  thingModel: ThingModel;
  /** Latest value per property key (numbers, enum codes, booleans as 0/1, texts). */
  values: Record<string, number | string | null>;
  /** When each value was measured (ISO). */
  valueTimes: Record<string, string>;
}

/** What every area widget receives: its area and one device, kept live by the screen. */
export interface AreaWidgetProps {
  area: AreaDef;
  device: AreaDevice;
}
