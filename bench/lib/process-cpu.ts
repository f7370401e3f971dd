import fs from 'node:fs/promises';
import { round } from './stats';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const HZ = 100;

/** utime + stime of a process in ticks, from /proc/<pid>/stat; undefined once it is gone. */
async function ticksOf(pid: number): Promise<number | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : undefined;
}

/**
 * PostgreSQL's backends serving one database (named in their process title): the machine's
 * PostgreSQL serves other work too, which is left out, and so are its shared background
 * processes (WAL writer, checkpointer).
 */
export async function postgresBackends(database: string): Promise<number[]> {
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const words = cmdline.replace(/\0/g, ' ').trim().split(/\s+/);
    // "postgres: [<cluster>: ]<user> <database> <client> <state>" (Debian names the cluster).
    const rest = words[1]?.endsWith(':') ? words.slice(2) : words.slice(1);
    if (words[0] === 'postgres:' && rest[1] === database) pids.push(Number(entry));
  }
  return pids;
}

/** Busy and total ticks of every core together, from /proc/stat. */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const stat = await fs.readFile('/proc/stat', 'utf8').catch(() => '');
  const fields = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle, iowait
  return { busy: total - idle, total };
}

/**
 * Watches the CPU time of groups of processes during a step, sampling /proc once a second so
 * that processes which come and go (PostgreSQL's backends) are counted: a process first seen
 * after the start counts from zero, one gone before the end keeps its last sample. Answers each
 * group's CPU seconds and cores used (CPU seconds per second), this process's own (the load
 * generator) and how busy the whole machine was (all of its cores, other work included).
 */
export function watchCpu(groups: Record<string, () => Promise<number[]>>) {
  const first = new Map<string, Map<number, number>>();
  const last = new Map<string, Map<number, number>>();
  const sample = async (initial: boolean) => {
    for (const [name, pidsOf] of Object.entries(groups)) {
      const firstOf = first.get(name) ?? new Map<number, number>();
      const lastOf = last.get(name) ?? new Map<number, number>();
      first.set(name, firstOf);
      last.set(name, lastOf);
      for (const pid of await pidsOf()) {
        const ticks = await ticksOf(pid);
        if (ticks === undefined) continue;
        if (!firstOf.has(pid)) firstOf.set(pid, initial ? ticks : 0);
        lastOf.set(pid, ticks);
      }
    }
  };
  const startedAt = Date.now();
  const self = process.cpuUsage();
  let machineStart: { busy: number; total: number } | undefined;
  const ready = Promise.all([sample(true), machineTicks().then((t) => (machineStart = t))]);
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(() => sample(false));
  }, 1000);
  return {
    ready,
    async stop() {
      clearInterval(timer);
      await ready;
      await sampling;
      await sample(false);
      const seconds = Math.max(0.001, (Date.now() - startedAt) / 1000);
      const machine = await machineTicks();
      const used = (name: string) => {
        let ticks = 0;
        for (const [pid, end] of last.get(name) ?? [])
          ticks += end - (first.get(name)?.get(pid) ?? 0);
        return ticks / HZ;
      };
      const own = process.cpuUsage(self);
      const cores: Record<string, { cpuSeconds: number; cores: number }> = {};
      for (const name of Object.keys(groups)) {
        const cpu = used(name);
        cores[name] = { cpuSeconds: round(cpu), cores: round(cpu / seconds) };
      }
      const generator = (own.user + own.system) / 1e6;
      cores.loadGenerator = { cpuSeconds: round(generator), cores: round(generator / seconds) };
      const start = machineStart ?? machine;
      const total = machine.total - start.total;
      return {
        seconds: round(seconds),
        processes: cores,
        /** Busy share of all the machine's cores (1 = every core busy), other work included. */
        machineBusy: total > 0 ? round((machine.busy - start.busy) / total) : 0,
      };
    },
  };
}
