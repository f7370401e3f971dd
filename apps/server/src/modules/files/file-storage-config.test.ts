import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

describe('FILE_STORAGE', () => {
  const names = ['FILE_STORAGE', 'DATABASE_URL'] as const;
  const saved = names.map((name) => process.env[name]);
  afterEach(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  it('defaults to the database where nodes may share one, to the disk on PGlite', () => {
    delete process.env.FILE_STORAGE;
    process.env.DATABASE_URL = 'postgres://db.example/shuili';
    expect(loadConfig().fileStorage).toBe('database');
    delete process.env.DATABASE_URL;
    expect(loadConfig().fileStorage).toBe('disk');
  });

  it('takes either value when given, and refuses anything else at start', () => {
    process.env.DATABASE_URL = 'postgres://db.example/shuili';
    process.env.FILE_STORAGE = 'disk';
    expect(loadConfig().fileStorage).toBe('disk');
    delete process.env.DATABASE_URL;
    process.env.FILE_STORAGE = ' Database ';
    expect(loadConfig().fileStorage).toBe('database');
    process.env.FILE_STORAGE = 's3';
    expect(() => loadConfig()).toThrow(/FILE_STORAGE must be "database" or "disk", got "s3"/);
  });
});
