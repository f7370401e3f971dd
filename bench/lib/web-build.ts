import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { REPO_ROOT } from '@shuili/test-support/server-process';

export interface BuiltSite {
  /** The folder with index.html and assets/. */
  dir: string;
  /** How long the build took; 0 when an up-to-date build was reused. */
  buildSeconds: number;
  remove(): Promise<void>;
}

async function timedBuild(prefix: string, run: (outDir: string) => Promise<unknown>) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const started = performance.now();
  try {
    await run(dir);
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    buildSeconds: (performance.now() - started) / 1000,
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Builds the console with its own Vite config (as `npm run build -w @shuili/web` does) into a
 * temporary folder, so the run measures the sources as they are without touching apps/web/dist,
 * which the end-to-end tests serve.
 */
export function buildConsole(): Promise<BuiltSite> {
  return timedBuild('shuili-web-', (outDir) =>
    build({
      configFile: path.join(REPO_ROOT, 'apps/web/vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    }),
  );
}

/** What the console's build is made of: its sources, its config and the contract it imports. */
const CONSOLE_INPUTS = ['apps/web', 'packages/contract/src'];

async function newestInput(): Promise<number> {
  let newest = 0;
  for (const input of CONSOLE_INPUTS) {
    const root = path.join(REPO_ROOT, input);
    for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (!entry.isFile() || /[\\/](dist|node_modules)[\\/]/.test(file)) continue;
      newest = Math.max(newest, (await fs.stat(file)).mtimeMs);
    }
  }
  return newest;
}

/**
 * apps/web/dist when it was built after its last source change (as `npm test` does before the
 * suite), else undefined: the smoke run then skips the console build, which takes most of it.
 */
export async function upToDateConsoleDist(): Promise<BuiltSite | undefined> {
  const dir = path.join(REPO_ROOT, 'apps/web/dist');
  const built = await fs.stat(path.join(dir, 'index.html')).then(
    (stat) => stat.mtimeMs,
    () => 0,
  );
  if (!built || built < (await newestInput())) return undefined;
  return { dir, buildSeconds: 0, remove: async () => undefined };
}

/** Builds the bare React + Ant Design peer page with the same Vite, React plugin and target. */
export function buildPeer(): Promise<BuiltSite> {
  return timedBuild('shuili-web-peer-', (outDir) =>
    build({
      root: path.join(REPO_ROOT, 'bench/peers/react-antd'),
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      // One chunk on purpose (React and antd together, about 600 KB): no size warning for it.
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
    }),
  );
}
