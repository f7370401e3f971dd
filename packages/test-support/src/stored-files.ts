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
