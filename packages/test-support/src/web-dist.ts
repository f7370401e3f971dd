import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for the built console in a fresh temporary folder: each path (under it, `/` as
 * separator) holds its text. The server serves it like the real `apps/web/dist`; remove it
 * after with `fs.rm(dir, { recursive: true })`.
 */
export async function writeWebDist(files: Record<string, string>): Promise<string> {
  const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-dist-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dist, ...name.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  }
  return dist;
}
