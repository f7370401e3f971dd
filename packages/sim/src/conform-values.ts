import { SERVER_COMPUTED_KEYS, type ThingModel, type ThingProperty } from '@shuili/contract';
import type { Random } from './random';
import type { SimValue, SimValues } from './models/physics-model';

/** Reported values as the thing model wants them. */
export type ReportedValues = Record<string, number | boolean | string>;

const normalize = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Other spellings a product may use for the same quantity, by normalized key. The physics keys
 * are the first of each row.
 */
const ALIASES: string[][] = [
  ['airtemperature', 'temperature', 'airtemp', 'temp'],
  ['airhumidity', 'humidity', 'relativehumidity', 'rh'],
  ['airpressure', 'pressure', 'atmosphericpressure', 'barometricpressure'],
  ['solarradiation', 'radiation', 'totalradiation', 'illuminance'],
  ['waterlevel', 'level', 'stage', 'upstreamlevel'],
  ['rainfall', 'precipitation', 'rain'],
  ['rainfalltoday', 'rainfalldaily', 'rainfall24h', 'dailyrainfall'],
  ['flow', 'flowrate', 'instantflow', 'mainflow', 'discharge'],
  ['cumulativevolume', 'totalvolume', 'volume', 'cumulativeflow', 'totalflow'],
  ['outletpressure', 'pressure', 'pipepressure', 'mainpressure'],
  ['pressure', 'pipepressure', 'mainpressure', 'outletpressure'],
  ['running', 'pumprunning', 'runstate', 'pumpstate', 'state', 'fertigating'],
  ['energy', 'totalenergy', 'cumulativeenergy', 'energykwh'],
  ['signalstrength', 'signal', 'rssi', 'csq'],
  ['batteryvoltage', 'battery', 'batvoltage'],
  ['gateopening', 'opening'],
  ['sedimentconcentration', 'sediment', 'concentration', 'sandcontent'],
  ['siltdepth', 'silt', 'siltthickness', 'sedimentdepth'],
  ['trapcount', 'insectcount', 'count', 'dailycount', 'counttoday'],
  ['lampon', 'lamp', 'lampstate', 'light'],
  ['power', 'powerstate', 'screenon', 'on'],
  ['programid', 'program'],
  ['soilec', 'ec', 'conductivity'],
  ['moisture10', 'soilmoisture10', 'humidity10', 'vwc10'],
  ['moisture20', 'soilmoisture20', 'humidity20', 'vwc20'],
  ['moisture40', 'soilmoisture40', 'humidity40', 'vwc40'],
  ['moisture60', 'soilmoisture60', 'humidity60', 'vwc60'],
  ['temperature10', 'soiltemperature10', 'soiltemp10'],
  ['temperature20', 'soiltemperature20', 'soiltemp20'],
  ['temperature40', 'soiltemperature40', 'soiltemp40'],
  ['temperature60', 'soiltemperature60', 'soiltemp60'],
  ['suctiona', 'channelaflow', 'flowa'],
  ['suctionb', 'channelbflow', 'flowb'],
  ['suctionc', 'channelcflow', 'flowc'],
  ['suctionacid', 'acidflow', 'flowacid', 'channeldflow', 'suctiond'],
  ['tanka', 'tankalevel', 'levela'],
  ['tankb', 'tankblevel', 'levelb'],
  ['tankc', 'tankclevel', 'levelc'],
  ['tankacid', 'acidtanklevel', 'tankacidlevel', 'tankd', 'tankdlevel'],
];

/** Finds the physics value a thing-model property stands for, if any. */
export function findRawValue(raw: SimValues, property: ThingProperty): SimValue | undefined {
  if (property.key in raw) return raw[property.key];
  const byNormal = new Map(Object.entries(raw).map(([key, value]) => [normalize(key), value]));
  const wanted = [property.key, property.factor]
    .filter((key): key is string => !!key)
    .map(normalize);
  for (const key of wanted) if (byNormal.has(key)) return byNormal.get(key);
  for (const key of wanted) {
    // valveState1, valve_1, channel1 ... all mean the first valve.
    const valve = /^(?:valve|valvestate|channel|channelstate)(\d+)$/.exec(key);
    if (valve && byNormal.has(`valve${valve[1]}`)) return byNormal.get(`valve${valve[1]}`);
    for (const row of ALIASES) {
      if (!row.includes(key)) continue;
      for (const candidate of row) if (byNormal.has(candidate)) return byNormal.get(candidate);
    }
  }
  return undefined;
}

/**
 * Turns the physics' readings into the product's thing model: only its keys, its types, within
 * its ranges and precision. A property the physics does not know gets a slow random walk within
 * its range, kept in `drift` between readings, so every key of any product carries data.
 */
export function conformValues(
  raw: SimValues,
  model: ThingModel,
  random: Random,
  drift: Map<string, number>,
): ReportedValues {
  if (model.properties.length === 0) return { ...raw };
  const out: ReportedValues = {};
  for (const property of model.properties) {
    // The server's own values (a flood station's rolling rain): no device reports them.
    if (SERVER_COMPUTED_KEYS.includes(property.key)) continue;
    const value = findRawValue(raw, property) ?? driftValue(property, random, drift);
    out[property.key] = coerce(property, value);
  }
  return out;
}

function driftValue(property: ThingProperty, random: Random, drift: Map<string, number>) {
  const low = property.min ?? 0;
  const high = property.max ?? Math.max(low + 100, 100);
  const previous = drift.get(property.key) ?? random.between(low, low + (high - low) * 0.6);
  const next = Math.min(high, Math.max(low, previous + random.normal(0, (high - low) * 0.01)));
  drift.set(property.key, next);
  if (property.type === 'boolean') return false;
  if (property.type === 'string') return '';
  return next;
}

/** One value in the property's type, range and precision. */
export function coerce(property: ThingProperty, value: SimValue): number | boolean | string {
  switch (property.type) {
    case 'boolean':
      return typeof value === 'boolean' ? value : Number(value) !== 0 && value !== '';
    case 'string':
      return String(value).slice(0, 1024);
    case 'enum': {
      const options = property.options ?? [];
      const number = typeof value === 'boolean' ? (value ? 1 : 0) : Math.round(Number(value));
      return options.some((option) => option.value === number) ? number : (options[0]?.value ?? 0);
    }
    case 'integer':
    case 'number': {
      let number = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
      if (!Number.isFinite(number)) number = property.min ?? 0;
      if (property.type === 'integer') number = Math.round(number);
      else if (property.precision !== undefined) {
        const factor = 10 ** property.precision;
        number = Math.round(number * factor) / factor;
      }
      const low =
        property.min === undefined
          ? -Infinity
          : property.type === 'integer'
            ? Math.ceil(property.min)
            : property.min;
      const high =
        property.max === undefined
          ? Infinity
          : property.type === 'integer'
            ? Math.floor(property.max)
            : property.max;
      return Math.min(high, Math.max(low, number));
    }
  }
}
