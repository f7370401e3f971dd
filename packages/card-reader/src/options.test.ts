import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from './options';

describe('command-line options', () => {
  it('defaults to a PC/SC reader on 17820 for the console of npm start', () => {
    const options = parseOptions([], { INIT_CWD: '/desk' });
    expect(options).toMatchObject({
      port: 17820,
      backend: 'pcsc',
      origins: ['http://localhost:8080', 'http://127.0.0.1:8080'],
      cardsDir: path.resolve('/desk/data/cards'),
    });
    expect(Buffer.from(options.keyA).toString('hex')).toBe('ffffffffffff');
  });

  it('takes the consoles named (flags before the environment), replacing the default', () => {
    expect(
      parseOptions(
        ['--origin', 'https://shuili.example.com/', '--origin', 'http://10.0.0.5:8080'],
        {
          CARD_READER_ORIGINS: 'https://other.example.com',
        },
      ).origins,
    ).toEqual(['https://shuili.example.com', 'http://10.0.0.5:8080']);
    expect(
      parseOptions([], { CARD_READER_ORIGINS: 'https://a.example.com, https://b.example.com' })
        .origins,
    ).toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  it('refuses what it could not follow, at start', () => {
    expect(() => parseOptions(['--origin', 'https://shuili.example.com/console'])).toThrow(
      /no path/,
    );
    expect(() => parseOptions(['--origin', '*'])).toThrow(/not an origin/);
    expect(() => parseOptions(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseOptions(['--key', 'FFFF'])).toThrow(/--key/);
    expect(() => parseOptions(['--present', 'card-1'])).toThrow(/--present/);
    expect(() => parseOptions(['--what'])).toThrow();
  });

  it('simulates when asked, placing the card given', () => {
    expect(
      parseOptions(['--simulate', '--cards', 'cards', '--present', '04a1b2c3'], {
        INIT_CWD: '/desk',
      }),
    ).toMatchObject({
      backend: 'simulated',
      cardsDir: path.resolve('/desk/cards'),
      present: '04A1B2C3',
    });
  });
});
