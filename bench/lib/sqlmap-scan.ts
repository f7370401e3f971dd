import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/** How hard sqlmap tries: the "sensible" level, with PostgreSQL's payloads only. */
export interface SqlmapOptions {
  level: number;
  risk: number;
  /** B boolean-blind, E error, U union, S stacked, T time-blind. */
  technique: string;
  dbms: string;
}

export interface ParameterResult {
  name: string;
  tested: boolean;
  injectable: boolean;
  /** The techniques sqlmap reported it injectable with (empty when not injectable). */
  techniques: string[];
}

export interface ScanResult {
  path: string;
  url: string;
  parameters: ParameterResult[];
  requests: number;
  /** Answers by status, as sqlmap counted the non-200 ones. */
  httpErrors: Record<string, number>;
  seconds: number;
  /** sqlmap's own verdict lines, for the record. */
  verdict: string;
  exitCode: number | null;
}

/** The installed sqlmap's version, or undefined when it is not installed. */
export async function sqlmapVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)('sqlmap', ['--version'], { timeout: 30_000 });
    // Beside the version it may warn that a newer one exists.
    return stdout
      .split('\n')
      .find((line) => /^\d+\.\d+/.test(line.trim()))
      ?.trim();
  } catch {
    return undefined;
  }
}

/** Parses sqlmap's console output and CSV results into per-parameter verdicts. */
export function parseSqlmapOutput(
  output: string,
  csv: string,
  parameters: string[],
): Pick<ScanResult, 'parameters' | 'httpErrors' | 'verdict'> {
  const tested = new Set(
    [...output.matchAll(/testing for SQL injection on GET parameter '([^']+)'/g)].map((m) => m[1]!),
  );
  const techniques = new Map<string, Set<string>>();
  const found = (name: string, technique: string) => {
    const set = techniques.get(name) ?? new Set<string>();
    set.add(technique);
    techniques.set(name, set);
  };
  for (const match of output.matchAll(
    /GET parameter '([^']+)' (?:appears to be|is) '([^']+)' injectable/g,
  ))
    found(match[1]!, match[2]!);
  // CSV: Target URL,Place,Parameter,Technique(s),Note(s)
  for (const line of csv.split('\n').slice(1)) {
    const cells = line.split(',');
    if (cells.length >= 4 && cells[1] === 'GET' && cells[2]) found(cells[2], cells[3] ?? '');
  }
  const httpErrors: Record<string, number> = {};
  for (const match of output.matchAll(/^(\d{3}) \([^)]*\) - (\d+) times/gm))
    httpErrors[match[1]!] = Number(match[2]);
  const verdict = output
    .split('\n')
    .filter((line) => /\[(CRITICAL|ERROR)\]|identified the following injection point/.test(line))
    .map((line) => line.replace(/^\[[\d:]+\] /, '').trim())
    .join(' | ');
  return {
    parameters: parameters.map((name) => ({
      name,
      tested: tested.has(name),
      injectable: techniques.has(name),
      techniques: [...(techniques.get(name) ?? [])],
    })),
    httpErrors,
    verdict,
  };
}

/**
 * Runs sqlmap in batch mode against one GET endpoint (every parameter of `url` named in
 * `parameters`), with the bearer token, its files under `workDir`. The request count comes from
 * sqlmap's traffic log.
 */
export async function scanEndpoint(
  target: { path: string; url: string; parameters: string[] },
  token: string,
  options: SqlmapOptions,
  workDir: string,
): Promise<ScanResult> {
  const started = performance.now();
  const outputDir = path.join(workDir, target.path.replace(/\W+/g, '_'));
  await fs.mkdir(outputDir, { recursive: true });
  const trafficFile = path.join(outputDir, 'traffic.txt');
  const args = [
    '-u',
    target.url,
    '--batch',
    `--level=${options.level}`,
    `--risk=${options.risk}`,
    `--technique=${options.technique}`,
    `--dbms=${options.dbms}`,
    '-p',
    target.parameters.join(','),
    `--headers=Authorization: Bearer ${token}`,
    `--output-dir=${outputDir}`,
    '--flush-session',
    '--disable-coloring',
    '--threads=4',
    '--timeout=30',
    '--retries=2',
    '-t',
    trafficFile,
  ];
  const child = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const traffic = await fs.readFile(trafficFile, 'utf8').catch(() => '');
  const requests = (traffic.match(/^HTTP request \[#\d+\]/gm) ?? []).length;
  const csvFile = (await fs.readdir(outputDir)).find((name) => name.endsWith('.csv'));
  const csv = csvFile ? await fs.readFile(path.join(outputDir, csvFile), 'utf8') : '';
  // The traffic log is large (about 2 kB a request) and already counted.
  await fs.rm(trafficFile, { force: true });
  return {
    path: target.path,
    url: target.url,
    ...parseSqlmapOutput(output, csv, target.parameters),
    requests,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    exitCode,
  };
}
