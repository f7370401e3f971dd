import { TELEMETRY_CALLS, deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from './admin-console';
import { addDevice, apiData as apiDataOf, connectDevice, onlineDevice } from './field-devices';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The monitoring areas' widgets against the real server: stations made for this test send their
 * past days over real MQTT as devices do (batches of timestamped readings, QoS 1, so they are
 * stored when the publish returns), and a signed-in administrator opens the area screens in
 * Chromium: the soil profile with the field capacity and wilting point of the station's soil
 * type, the wind rose, the daily rain and ET0 bars, the pump station's dry-run line.
 */

const H = 3_600_000;
/** The instant the test's history ends: its newest readings are "now". */
const T0 = Date.now();

let rig: ConsoleRig;
let admin: Page;
const clients: MqttClient[] = [];

interface Reading {
  ts: number;
  values: Record<string, number>;
}

interface Station {
  id: string;
  deviceNo: string;
}

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

/** A new station of a seeded product, in a demo zone, at the demo district's latitude. */
const addStation = (serialNo: string, deviceNo: string, deviceName: string) =>
  addDevice(admin, { serialNo, deviceNo, deviceName, zone: 'last' });

/** The station as a real MQTT client with its own credentials. */
async function connectStation(station: Station): Promise<MqttClient> {
  const client = await connectDevice(rig, admin, station.id);
  clients.push(client);
  return client;
}

/** Sends readings as a station catching up does: batches of timestamped readings, QoS 1. */
const BATCH = 100;
async function publishReadings(
  station: Station,
  readings: readonly Reading[],
  client?: MqttClient,
): Promise<void> {
  const device = client ?? (await connectStation(station));
  const topic = deviceTopic('demo', station.deviceNo, 'telemetry');
  for (let i = 0; i < readings.length; i += BATCH) {
    await device.publishAsync(topic, JSON.stringify(readings.slice(i, i + BATCH)), { qos: 1 });
  }
  // Stored, every value of them: the screens below are drawn from these and nothing else.
  const stat = await apiData<Record<string, unknown>>(
    'GET',
    `${TELEMETRY_CALLS.ingestStat}?deviceId=${station.id}`,
  );
  expect(stat).toMatchObject({
    unknownKeys: 0,
    wrongType: 0,
    outOfRange: 0,
    badPayload: 0,
    badTime: 0,
  });
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const lerp = (a: readonly number[], b: readonly number[], share: number) =>
  a.map((value, index) => value + (b[index]! - value) * share);

// Moisture at 10/20/40/60 cm: a profile drying out over a week. Flat around 24 h and 7 days
// ago, so whichever hourly bucket the panel reads there, the values are these.
const NOW = [14, 18, 24, 34];
const DAY_AGO = [22, 25, 28, 31];
const WEEK_AGO = [32, 33, 34, 35];
function soilAt(hoursAgo: number): number[] {
  if (hoursAgo >= 160) return WEEK_AGO;
  if (hoursAgo > 28) return lerp(DAY_AGO, WEEK_AGO, (hoursAgo - 28) / (160 - 28));
  if (hoursAgo >= 20) return DAY_AGO;
  return lerp(NOW, DAY_AGO, hoursAgo / 20);
}
const soilReadings: Reading[] = Array.from({ length: 201 }, (_, index) => {
  const hoursAgo = 200 - index;
  const profile = soilAt(hoursAgo);
  return {
    ts: T0 - hoursAgo * H,
    values: Object.fromEntries(
      [10, 20, 40, 60].map((depth, i) => [`soilMoisture${depth}`, round1(profile[i]!)]),
    ),
  };
});

// A week of a station reporting every 10 minutes: three readings in four from the east
// (4.2 m/s), one from the north (2 m/s); 0.5 mm each 10 minutes from 02:00 to 04:00 local on
// three days; a plain summer day's temperature, humidity and sunshine for ET0.
const STEP = 10 * 60_000;
const weatherReadings: Reading[] = Array.from({ length: 7 * 144 + 1 }, (_, index) => {
  const stepsAgo = 7 * 144 - index;
  const ts = T0 - stepsAgo * STEP;
  const localHour = (new Date(ts).getUTCHours() + 8 + new Date(ts).getUTCMinutes() / 60) % 24;
  const dayAgo = Math.floor((stepsAgo * STEP) / (24 * H));
  const north = stepsAgo % 4 === 1;
  const sun = Math.max(0, Math.sin((Math.PI * (localHour - 6)) / 12));
  return {
    ts,
    values: {
      windDirection: north ? 0 : 90,
      windSpeed: north ? 2 : 4.2,
      airTemperature: round1(21 + 6 * Math.sin((2 * Math.PI * (localHour - 9)) / 24)),
      airHumidity: round1(65 - 20 * Math.sin((2 * Math.PI * (localHour - 9)) / 24)),
      airPressure: 1010,
      solarRadiation: Math.round(850 * sun),
      rainfall: [1, 3, 5].includes(dayAgo) && localHour >= 2 && localHour < 4 ? 0.5 : 0,
    },
  };
});
const rainTotal = weatherReadings.reduce((sum, reading) => sum + reading.values.rainfall!, 0);

let soil: Station;
let weather: Station;
let pump: Station;

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  await admin.setViewportSize({ width: 1600, height: 1000 });
  soil = await addStation('SOIL-4D', 'E2E-SOIL', 'E2E soil station');
  weather = await addStation('WEATHER-8', 'E2E-WX', 'E2E weather station');
  pump = await addStation('PUMP-VFD-2', 'E2E-PUMP', 'E2E pump station');
  // The soil is clay (FC 40 %, WP 25 %), not the default loam; the forebay's dry-run line 2.5 m.
  await apiData('POST', '/api/monitor/setting/updateAreaSetting', {
    area: 'soilMoisture',
    deviceId: soil.id,
    values: { soilType: 'clay' },
  });
  await apiData('POST', '/api/monitor/setting/updateAreaSetting', {
    area: 'pumpStation',
    deviceId: pump.id,
    values: { dryRunLevel: 2.5 },
  });
  await publishReadings(soil, soilReadings);
  await publishReadings(weather, weatherReadings);
  await publishReadings(pump, [
    {
      ts: T0,
      values: {
        pump1Running: 1,
        pump1Frequency: 45,
        pump1Current: 120,
        pump1Voltage: 380,
        pump1Power: 55,
        pump2Running: 0,
        pump2Frequency: 0,
        forebayLevel: 1.8,
        outletPressure: 0.45,
        flow: 320,
      },
    },
  ]);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.endAsync(true)));
  await rig?.close();
});

/** Opens an area's monitor and selects a station's card: its panels open beside the cards. */
async function selectOnMonitor(path: string, station: Station, cardWidget: string) {
  await admin.goto(path);
  const card = admin.locator(
    `[data-testid="area-device-card"][data-device-no="${station.deviceNo}"]`,
  );
  await card.getByTestId(cardWidget).click();
  const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${station.deviceNo}"]`);
  await panels.waitFor();
  return { card, panels };
}

describe('soil moisture monitor', () => {
  it('shows the depth profile now, a day and a week ago, against the soil type’s limits', async () => {
    const { card, panels } = await selectOnMonitor(
      '/soilMoisture/soilMoistureMonitor',
      soil,
      'widget-soilBars',
    );
    // The card's bars, coloured against clay: 14 % at 10 cm is below its wilting point.
    await card.locator('[data-testid="soil-bar"][data-depth="10"][data-state="dry"]').waitFor();
    await card.locator('[data-testid="soil-bar"][data-depth="60"][data-state="good"]').waitFor();

    const chart = panels.getByTestId('soil-profile-chart');
    await chart
      .and(admin.locator('[data-field-capacity="40"][data-wilting-point="25"]'))
      .and(admin.locator(`[data-day-ago="${DAY_AGO.map((v) => v.toFixed(1)).join(',')}"]`))
      .waitFor();
    expect(await chart.getAttribute('data-now')).toBe(NOW.map((v) => v.toFixed(1)).join(','));
    expect(await chart.getAttribute('data-week-ago')).toBe(
      WEEK_AGO.map((v) => v.toFixed(1)).join(','),
    );
    await chart.locator('[data-ready="true"]').waitFor();
    await expect(panels.getByTestId('widget-soilProfile').innerText()).resolves.toContain('Clay');
  });
});

describe('weather monitor', () => {
  it('draws the wind rose from the last day’s readings, the wind mostly from the east', async () => {
    const { card, panels } = await selectOnMonitor(
      '/weatherStation/weatherMonitor',
      weather,
      'widget-weatherNow',
    );
    await card.locator('[data-testid="weather-wind-arrow"][data-direction="90"]').waitFor();
    const rose = panels.getByTestId('wind-rose-chart');
    await rose.and(admin.locator('[data-prevailing="E"]')).waitFor();
    // A day of 10-minute readings: about 144 pairs of direction and speed.
    expect(Number(await rose.getAttribute('data-samples'))).toBeGreaterThanOrEqual(140);
    await rose.locator('[data-ready="true"]').waitFor();
    await expect(panels.getByTestId('widget-windRose').innerText()).resolves.toContain(
      'wind mostly from E',
    );
  });

  it('draws daily rain bars with ET0 beside them', async () => {
    const panels = admin.locator(
      `[data-testid="area-panels"][data-device-no="${weather.deviceNo}"]`,
    );
    const bars = panels.getByTestId('rain-et0');
    await bars.and(admin.locator(`[data-rain-total="${rainTotal.toFixed(1)}"]`)).waitFor();
    // Every full day of the week has what FAO-56 needs.
    expect(Number(await bars.getAttribute('data-et0-days'))).toBeGreaterThanOrEqual(5);
    expect(await bars.getAttribute('data-source')).toBe('et0');
    await bars.locator('[data-testid="rain-et0-chart"][data-ready="true"]').waitFor();
  });
});

describe('pump station device list', () => {
  it('draws the forebay below its dry-run line on the station’s card', async () => {
    await admin.goto('/pumpStation/pumpDevice');
    await admin.getByTestId('area-view').getByText('Cards').click();
    const card = admin.locator(
      `[data-testid="area-device-card"][data-device-no="${pump.deviceNo}"]`,
    );
    const station = card.getByTestId('widget-pumpStation');
    await station.and(admin.locator('[data-below-dry-run="true"]')).waitFor();
    await station.locator('[data-testid="pump-dry-run-line"][data-level="2.5"]').waitFor();
    await station
      .locator('[data-testid="pump-unit"][data-pump="1"][data-running="true"]')
      .waitFor();
    await station
      .locator('[data-testid="pump-unit"][data-pump="2"][data-running="false"]')
      .waitFor();
    await expect(station.innerText()).resolves.toContain('Dry-run 2.5 m');
    // The area has no monitor route: its panels open beside the selected card of the list.
    await station.click();
    const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${pump.deviceNo}"]`);
    await panels.getByTestId('widget-pumpTrend').waitFor();
  });
});

/** Opens an area's device list as cards: the card of a station. */
async function cardOnList(path: string, station: Station) {
  await admin.goto(path);
  await admin.getByTestId('area-view').getByText('Cards').click();
  return admin.locator(`[data-testid="area-device-card"][data-device-no="${station.deviceNo}"]`);
}

describe('the other areas’ cards', () => {
  it('shows each valve channel as a lamp in its state', async () => {
    const valve = await addStation('IRR-VALVE-4', 'E2E-VALVE', 'E2E valve controller');
    await publishReadings(valve, [
      {
        ts: T0,
        values: { valve1State: 1, valve2State: 0, valve3State: 2, flow: 12.5, pressure: 0.32 },
      },
    ]);
    const card = await cardOnList('/irrigation/irrigationDevice', valve);
    const lamps = card.getByTestId('valve-lamp');
    await lamps.first().waitFor();
    await expect(
      lamps.evaluateAll((all) => all.map((lamp) => lamp.getAttribute('data-state'))),
    ).resolves.toEqual(['open', 'closed', 'fault', 'unknown']);
    await expect(card.getByTestId('widget-valveChannels').innerText()).resolves.toContain(
      '12.50 m³/h',
    );
  });

  it('draws a gate at its opening against its travel, moving', async () => {
    const gate = await addStation('GATE-1', 'E2E-GATE', 'E2E sluice gate');
    await publishReadings(gate, [
      {
        ts: T0,
        values: { gateOpening: 1.5, gateState: 1, upstreamLevel: 3.2, downstreamLevel: 2.1 },
      },
    ]);
    const card = await cardOnList('/sluiceIrrigation/sluiceIrrigationDeviceManagement', gate);
    const widget = card.getByTestId('widget-gate');
    await widget.and(admin.locator('[data-opening="1.5"][data-moving="true"]')).waitFor();
    const text = await widget.innerText();
    expect(text).toContain('50 % of 3 m');
    expect(text).toContain('Opening');
    expect(text).toContain('3.200 m');
  });

  it('weighs EC and pH against the recipe the machine accepted', async () => {
    const machine = await addStation('FERT-4CH', 'E2E-FERT', 'E2E fertigation machine');
    // Online and acknowledging, as a machine that accepts its recipe.
    const { client } = await onlineDevice(rig, admin, machine);
    clients.push(client);
    await apiData('POST', '/api/iot/command/sendCommand', {
      deviceId: machine.id,
      name: 'setRecipe',
      params: { targetEc: 1.6, targetPh: 6.2 },
    });
    await expect
      .poll(async () => {
        const records = await apiData<{ list: Array<{ status: string }> }>(
          'GET',
          `/api/iot/command/queryCommand?deviceId=${machine.id}&name=setRecipe`,
        );
        return records.list[0]?.status;
      })
      .toBe('succeeded');
    await publishReadings(
      machine,
      [{ ts: T0, values: { running: 1, ec: 1.8, ph: 7, channelAFlow: 120, tankALevel: 64 } }],
      client,
    );
    const card = await cardOnList('/waterFertilizer/waterFertilizerDevice', machine);
    // Within the default band of 0.5 for EC, outside it for pH.
    const ec = card.getByTestId('fertigation-ec');
    await ec.and(admin.locator('[data-within="true"]')).waitFor();
    await card.locator('[data-testid="fertigation-ph"][data-within="false"]').waitFor();
    await expect(ec.innerText()).resolves.toContain('(target 1.60 ± 0.50)');
    await card.locator('[data-testid="fertigation-running"][data-running="true"]').waitFor();
  });
});
