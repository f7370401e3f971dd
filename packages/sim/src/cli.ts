import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { deviceIdentity, type ThingModel } from '@shuili/contract';
import { productOfDevice } from './device-kind-of';
import { DEVICE_KINDS, isDeviceKind } from './models/create-physics-model';
import { formatSimStats } from './sim-stats';
import { startSimulation, type SimDeviceSpec } from './simulation';

/**
 * npm run simulate -- --devices N --rate R [--url mqtt://127.0.0.1:1883] [--tenant demo]
 *                     [--credentials file.json] [--offline 0.002] [--seed 1]
 * Without credentials the devices connect anonymously (a broker that allows it, e.g. Mosquitto).
 */
const USAGE =
  'usage: npm run simulate -- --devices N --rate R [--url mqtt://127.0.0.1:1883] [--tenant demo] ' +
  '[--credentials file.json] [--offline probability] [--seed n]';

interface CredentialEntry {
  identity: string;
  secret: string;
  kind?: string;
  thingModel?: ThingModel;
}

function fail(message: string): never {
  console.error(`simulate: ${message}\n${USAGE}`);
  process.exit(2);
}

function positive(name: string, text: string | undefined, fallback?: number): number {
  if (text === undefined) {
    if (fallback === undefined) fail(`--${name} is required`);
    return fallback;
  }
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) fail(`--${name} must be a positive number`);
  return value;
}

/** Devices from a credentials file ([{identity, secret, kind?, thingModel?}]). */
function fromCredentials(file: string, count: number | undefined): SimDeviceSpec[] {
  let entries: CredentialEntry[];
  try {
    entries = JSON.parse(readFileSync(file, 'utf8')) as CredentialEntry[];
  } catch (error) {
    fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(entries)) fail(`${file} must hold an array of {identity, secret}`);
  const devices: SimDeviceSpec[] = [];
  for (const entry of entries.slice(0, count ?? entries.length)) {
    if (typeof entry?.identity !== 'string' || typeof entry.secret !== 'string')
      fail(`${file}: every entry needs identity and secret`);
    const known = isDeviceKind(entry.kind) ? { kind: entry.kind } : productOfDevice(entry.identity);
    if (!known) {
      console.error(
        `simulate: skipping ${entry.identity}: no kind and no product matches its number`,
      );
      continue;
    }
    const thingModel = entry.thingModel ?? ('thingModel' in known ? known.thingModel : undefined);
    devices.push({
      identity: entry.identity,
      secret: entry.secret,
      kind: known.kind,
      ...(thingModel ? { thingModel } : {}),
    });
  }
  return devices;
}

/** Anonymous devices spread over every kind: sim-{kind}-{n}. */
function anonymous(tenant: string, count: number): SimDeviceSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = DEVICE_KINDS[i % DEVICE_KINDS.length]!;
    const deviceNo = `sim-${kind.replace(/_/g, '-')}-${Math.floor(i / DEVICE_KINDS.length) + 1}`;
    return { identity: deviceIdentity(tenant, deviceNo), kind };
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string' },
      rate: { type: 'string' },
      url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      tenant: { type: 'string', default: 'demo' },
      credentials: { type: 'string' },
      offline: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!/^[a-z][a-z0-9_-]*$/.test(values.tenant)) fail('--tenant must be a tenant code');
  const count =
    values.devices === undefined ? undefined : Math.floor(positive('devices', values.devices));
  const devices = values.credentials
    ? fromCredentials(values.credentials, count)
    : anonymous(values.tenant, count ?? fail('--devices is required without --credentials'));
  if (devices.length === 0) fail('no device to simulate');
  const rate = positive('rate', values.rate, devices.length / 10);
  const offline = values.offline === undefined ? 0.002 : Number(values.offline);
  if (!(offline >= 0 && offline <= 1)) fail('--offline must be a probability between 0 and 1');

  let lastError = '';
  const simulation = await startSimulation({
    brokerUrl: values.url,
    devices,
    rate,
    offlineProbability: offline,
    ...(values.seed ? { seed: Number(values.seed) } : {}),
    onError: (identity, error) => {
      lastError = `${identity}: ${error.message}`;
    },
  });
  console.log(
    `simulating ${devices.length} devices at ${rate} msg/s on ${values.url} ` +
      `(one reading per device every ${(devices.length / rate) | 0 || '<1'} s)`,
  );
  const timer = setInterval(() => {
    console.log(
      `${new Date().toISOString()}  ${formatSimStats(simulation.stats, devices.length)}` +
        (lastError ? `  last error ${lastError}` : ''),
    );
    lastError = '';
  }, 10_000);
  const shutdown = async () => {
    clearInterval(timer);
    await simulation.stop();
    console.log(formatSimStats(simulation.stats, devices.length));
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

void main();
