// `npm run bench` runs every benchmark, `npm run bench -- <name> [--smoke]` one of them.
import { runCluster } from './cluster';
import { runIngest } from './ingest';
import { runList } from './list';
import { runLoad } from './load';
import { runMonitor } from './monitor';
import { runLedger } from './ledger';
import { runLogin } from './login';
import { runReport } from './report';
import { runOverload } from './overload';
import { runRealtime } from './realtime';
import { runSqlmap } from './sqlmap';
import { runUserList } from './user-list';
import { runWeb } from './web';
import { runTraceHome } from './trace-home';

const BENCHMARKS: Record<string, (smoke: boolean) => Promise<{ file: string; summary: unknown }>> =
  {
    login: runLogin,
    ingest: runIngest,
    'user-list': runUserList,
    report: runReport,
    list: runList,
    realtime: runRealtime,
    overload: runOverload,
    load: runLoad,
    web: runWeb,
    monitor: runMonitor,
    sqlmap: runSqlmap,
    ledger: runLedger,
    'trace-home': runTraceHome,
    cluster: runCluster,
  };

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = names.filter((name) => !BENCHMARKS[name]);
if (unknown.length) {
  console.error(
    `unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`,
  );
  process.exit(2);
}
for (const name of names.length ? names : Object.keys(BENCHMARKS)) {
  console.log(`== ${name}${smoke ? ' (smoke)' : ''}`);
  const { file, summary } = await BENCHMARKS[name]!(smoke);
  console.log(JSON.stringify(summary, null, 2));
  console.log(`written to ${file}`);
}
