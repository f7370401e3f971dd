import type { LedPage } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../random';
import { createEnvironment } from './environment';
import { LedScreenModel } from './led-screen';

const START = Date.UTC(2025, 6, 1);

const screen = () =>
  new LedScreenModel(
    createEnvironment({ random: createRandom(1), start: START, rain: [] }),
    createRandom(2),
    START,
  );

const page = (x: number): LedPage => ({
  durationSeconds: 10,
  background: '#000000',
  elements: [
    {
      id: 'level',
      type: 'live',
      x,
      y: 0,
      width: 96,
      height: 20,
      color: '#00ff00',
      fontSize: 16,
      align: 'left',
      text: 'Level',
      binding: { deviceId: '7', property: 'waterLevel', unit: 'm', decimals: 2 },
    },
  ],
});

const content = (width: number, pages: LedPage[], values = {}) =>
  JSON.stringify({ programNo: 'P1', width, height: 96, pages, values });

describe('the simulated LED screen', () => {
  it('shows nothing until it is given a program, then reports it with its resolution', () => {
    const led = screen();
    expect(led.values()).toMatchObject({ program: '', width: 192, height: 96 });
    const taken = led.command('setProgram', {
      programId: 'CANAL',
      content: content(192, [page(0)], { '7.waterLevel': 1.25 }),
    });
    expect(taken).toEqual({ ok: true });
    expect(led.values().program).toBe('CANAL');
    expect(led.pageCount).toBe(1);
    expect(led.shownValue('7.waterLevel')).toBe(1.25);
    expect(led.command('updateValues', { values: '{"7.waterLevel":1.5}' })).toEqual({ ok: true });
    expect(led.shownValue('7.waterLevel')).toBe(1.5);
  });

  it('refuses a program larger than its resolution or drawing outside it, and malformed ones', () => {
    const led = screen();
    const larger = led.command('setProgram', {
      programId: 'BIG',
      content: content(256, [page(0)]),
    });
    expect(larger).toMatchObject({ ok: false, message: expect.stringMatching(/larger than/) });
    const outside = led.command('setProgram', {
      programId: 'OUT',
      content: content(192, [page(150)]),
    });
    expect(outside).toMatchObject({ ok: false, message: expect.stringMatching(/outside/) });
    expect(led.command('setProgram', { programId: 'X', content: 'not json' })).toMatchObject({
      ok: false,
    });
    expect(led.command('updateValues', { values: '[1]' })).toMatchObject({ ok: false });
    // Nothing refused replaced what it shows.
    expect(led.values().program).toBe('');
  });
});
