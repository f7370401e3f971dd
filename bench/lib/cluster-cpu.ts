// CPU of every process a multi-node run involves (nodes, nginx, the broker, PostgreSQL's backends
// of the run's database, the load generator) and of the whole machine, from /proc: on two cores
// the sum says what bounds three nodes, and the rest of the machine says what other work took.
import fs from 'node:fs/promises';
import pg from 'pg';
import { round } from './stats';

/** Kernel ticks per second (USER_HZ): 100 on Linux for every architecture node runs on. */
const TICKS = 100;

interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime in ticks, for the whole thread group. */
  ticks: number;
}

async function readProc(pid: number): Promise<ProcInfo | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return undefined;
  const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    ppid: Number(fields[1]),
    comm,
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

async function allProcs(): Promise<ProcInfo[]> {
  const names = await fs.readdir('/proc').catch(() => [] as string[]);
  const infos = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readProc(+n)));
  return infos.filter((info): info is ProcInfo => !!info);
}

/** Processes started (directly or not) by this one whose command is `comm`. */
function descendantsNamed(procs: ProcInfo[], comm: string): number[] {
  const children = new Map<number, ProcInfo[]>();
  for (const proc of procs) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc]);
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (child.comm === comm) found.push(child.pid);
      walk(child.pid);
    }
  };
  walk(process.pid);
  return found;
}

/** The machine's busy and total jiffies over all cores (/proc/stat's first line). */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await fs.readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((sum, v) => sum + v, 0);
  // idle and iowait are the 4th and 5th values.
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

/**
 * PostgreSQL backends serving one database (the run's), read on a connection opened once: on a
 * machine whose PostgreSQL is full of other work's connections a new one may be refused.
 */
export async function backendWatcher(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return {
    pids: async (): Promise<number[]> => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [database],
      );
      return rows.map((row) => row.pid);
    },
    close: () => client.end(),
  };
}

export interface CpuGroups {
  /** Named server nodes and their process ids (read when the watch starts and ends). */
  nodes: () => { name: string; pid: number }[];
  /** The process ids of PostgreSQL's backends serving the run's database. */
  backends: () => Promise<number[]>;
}

type Snapshot = Map<string, Map<number, number>>;

/** Per group: pid -> ticks at this moment. */
async function snapshot(groups: CpuGroups): Promise<Snapshot> {
  const procs = await allProcs();
  const byPid = new Map(procs.map((proc) => [proc.pid, proc]));
  const pick = (pids: number[]) =>
    new Map(pids.filter((pid) => byPid.has(pid)).map((pid) => [pid, byPid.get(pid)!.ticks]));
  const result: Snapshot = new Map();
  for (const node of groups.nodes()) result.set(node.name, pick([node.pid]));
  result.set('nginx', pick(descendantsNamed(procs, 'nginx')));
  result.set('mosquitto', pick(descendantsNamed(procs, 'mosquitto')));
  result.set('postgres (this database)', pick(await groups.backends()));
  // Everything PostgreSQL ran, other databases (other work on the machine) and its background
  // writers included.
  result.set('postgres (all)', pick(procs.filter((p) => p.comm === 'postgres').map((p) => p.pid)));
  result.set('load generator', pick([process.pid]));
  return result;
}

/**
 * Starts watching; the returned function answers each group's CPU over the watch as a share of
 * one core (100 = one core busy), the machine's busy share of all its cores, and the part of the
 * machine none of the groups used. A process that started during the watch counts from zero.
 */
export async function watchCpu(groups: CpuGroups) {
  const before = await snapshot(groups);
  const machineBefore = await machineTicks();
  const started = performance.now();
  return async () => {
    const seconds = (performance.now() - started) / 1000;
    const after = await snapshot(groups);
    const machineAfter = await machineTicks();
    const percentOfCore: Record<string, number> = {};
    for (const [name, pids] of after) {
      let ticks = 0;
      for (const [pid, now] of pids) ticks += now - (before.get(name)?.get(pid) ?? 0);
      percentOfCore[name] = round((ticks / TICKS / seconds) * 100, 1);
    }
    const busy = machineAfter.busy - machineBefore.busy;
    const machineBusyPercentOfCore = round((busy / TICKS / seconds) * 100, 1);
    const ours = Object.entries(percentOfCore)
      .filter(([name]) => name !== 'postgres (this database)')
      .reduce((sum, [, value]) => sum + value, 0);
    return {
      seconds: round(seconds),
      percentOfCore,
      machine: {
        busyPercentOfCore: machineBusyPercentOfCore,
        /** Busy time none of the watched processes used (other work, the kernel's own). */
        othersPercentOfCore: round(Math.max(0, machineBusyPercentOfCore - ours), 1),
      },
    };
  };
}
