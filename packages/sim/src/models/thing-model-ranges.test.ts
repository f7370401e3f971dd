import { checkThingValue, PRODUCTS, SERVER_COMPUTED_KEYS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { conformValues, findRawValue } from '../conform-values';
import { createRandom } from '../random';
import { createEnvironment } from './environment';
import { createPhysicsModel, DEVICE_KINDS } from './create-physics-model';
import { DeviceHealthModel } from './device-health';

const HOUR = 3_600_000;
const START = Date.UTC(2025, 6, 1);

describe('physics against the seeded products', () => {
  it('has a seeded product for every kind the simulator knows', () => {
    expect(PRODUCTS.map((product) => product.kind).sort()).toEqual([...DEVICE_KINDS].sort());
  });

  for (const product of PRODUCTS) {
    it(`${product.kind}: every property carries physics within its range over a simulated day`, () => {
      const random = createRandom(42);
      // A stormy day: the rain script makes levels, flows and concentrations swing.
      const env = createEnvironment({
        random,
        start: START,
        rain: [{ start: START + 6 * HOUR, end: START + 10 * HOUR, mmPerHour: 20 }],
      });
      const physics = createPhysicsModel(product.kind, {
        env,
        random: random.fork(),
        start: START,
      });
      const health = new DeviceHealthModel(env, random.fork(), START);
      // Exercise the actuators so their running ranges are checked too.
      for (const command of product.thingModel.commands) {
        const params: Record<string, unknown> = Object.fromEntries(
          command.params.map((param) => [
            param.key,
            param.type === 'boolean' ? true : (param.max ?? 1),
          ]),
        );
        if (command.key === 'setProgram') params['programId'] = 'P2';
        if (command.key.startsWith('stop') || command.key.startsWith('close')) continue;
        physics.command(command.key, params);
      }
      // What devices report: every property but those the server computes (rolling rain).
      const reportedProperties = product.thingModel.properties.filter(
        (property) => !SERVER_COMPUTED_KEYS.includes(property.key),
      );
      const drift = new Map<string, number>();
      for (let t = START; t <= START + 24 * HOUR; t += 10 * 60_000) {
        physics.advance(t);
        health.advance(t);
        const raw = { ...health.values(), ...physics.values() };
        for (const property of reportedProperties) {
          const value = findRawValue(raw, property);
          // Physics, not the random-walk fallback, stands behind every key of the product.
          expect(value, `${product.kind}.${property.key}`).toBeDefined();
          // Checked before conforming: clamping must not hide physics out of range.
          const check = checkThingValue(property, value);
          expect(check, `${product.kind}.${property.key}=${String(value)}`).toMatchObject({
            ok: true,
          });
        }
        const reported = conformValues(raw, product.thingModel, random, drift);
        expect(Object.keys(reported).sort()).toEqual(
          reportedProperties.map((property) => property.key).sort(),
        );
      }
    });
  }
});
