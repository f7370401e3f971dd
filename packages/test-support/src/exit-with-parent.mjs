/**
 * Preloaded (`node --import`, see EXIT_WITH_PARENT) into the processes tests and benchmarks
 * spawn: when the process that started this one is gone, it stops instead of living on as an
 * orphan that holds its port, its database and a core through the rest of the run. That happens
 * when a test fork ends by a timeout or a signal before its afterAll stops its servers. Linux
 * hands an orphan to another parent, so a changed ppid says the starter is gone (plain JavaScript:
 * it runs before any loader, in processes started without tsx too).
 */
const starter = process.ppid;
/** How long a graceful stop (SIGTERM: the server's own shutdown) may take before the exit. */
const GRACE_MS = 10_000;

const watch = setInterval(() => {
  if (process.ppid === starter) return;
  clearInterval(watch);
  setTimeout(() => process.exit(1), GRACE_MS).unref();
  process.kill(process.pid, 'SIGTERM');
}, 1000);
watch.unref();
