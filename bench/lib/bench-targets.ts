import type { Backend } from '@shuili/test-support/test-server';

/** PGlite always; PostgreSQL when TEST_DATABASE_URL is set. */
export function backends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * What a benchmark runs, from its `<NAME>_BACKENDS` variable (e.g. `pglite,postgres,mosquitto`):
 * everything when it is unset.
 */
export function chosenBy(variable: string): (name: string) => boolean {
  const chosen = process.env[variable]?.split(',');
  return (name) => !chosen || chosen.includes(name);
}
