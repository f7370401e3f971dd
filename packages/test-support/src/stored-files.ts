import fs from 'node:fs/promises';
import path from 'node:path';

/** The files uploads left under a server's data folder (`<dataDir>/files`), as relative paths. */
export async function storedFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'files');
  const entries = await fs.readdir(root, { recursive: true }).catch(() => [] as string[]);
  const files: string[] = [];
  for (const entry of entries)
    if ((await fs.stat(path.join(root, entry))).isFile()) files.push(entry);
  return files;
}

/**
 * A reader of the files stored from now on: a demo server starts with the seed's own files
 * (device photos and documents), which tests about uploads leave out.
 */
export async function filesStoredFromNow(dataDir: string): Promise<() => Promise<string[]>> {
  const before = new Set(await storedFiles(dataDir));
  return async () => (await storedFiles(dataDir)).filter((file) => !before.has(file));
}
