import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startConsole, type ConsoleRig } from './console';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const assets = path.join(dist, 'assets');
const KB = 1024;
/** The sign-in route's first JS (entry and its static imports), gzip: the budget. */
const INITIAL_BUDGET = 220 * KB;
/** Everything /login loads (its own chunk, the form components, the language): a guard rail. */
const LOGIN_BUDGET = 260 * KB;
/** Console code that the sign-in page must never download. */
const CONSOLE_CHUNKS = /^(WorkbenchPage|ConsoleRoute|BasicLayout|RegisterPage|ForgotPasswordPage)-/;

const gzipSize = (file: string) =>
  zlib.gzipSync(fs.readFileSync(path.join(assets, file)), { level: 9 }).length;

function staticImports(file: string): string[] {
  const code = fs.readFileSync(path.join(assets, file), 'utf8');
  return [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((match) => match[1]!);
}

function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  for (let file = todo.pop(); file; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...staticImports(file));
  }
  return seen;
}

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

it('keeps the sign-in route small and free of console code', async () => {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeTruthy();
  const initial = [...staticClosure(entry!)];
  const initialBytes = initial.reduce((sum, file) => sum + gzipSize(file), 0);

  const { page } = await rig.newPage();
  const loaded = new Set<string>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) {
      loaded.add(pathname.slice('/assets/'.length));
    }
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await page.locator('#login_username').waitFor();
  const loadedBytes = [...loaded].reduce((sum, file) => sum + gzipSize(file), 0);

  console.info(
    `sign-in JS (gzip): entry + static imports ${(initialBytes / KB).toFixed(1)} KB; ` +
      `everything /login loads ${(loadedBytes / KB).toFixed(1)} KB in ${loaded.size} files`,
  );
  expect(initial.every((file) => loaded.has(file))).toBe(true);
  expect([...loaded].filter((file) => CONSOLE_CHUNKS.test(file))).toEqual([]);
  expect(initialBytes).toBeLessThanOrEqual(INITIAL_BUDGET);
  expect(loadedBytes).toBeLessThanOrEqual(LOGIN_BUDGET);
});
