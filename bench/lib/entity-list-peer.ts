// The list benchmarks' peer: the SQL the server runs for one page of an entity's list, and nothing
// else. It runs the server's own entityRepo.page for the page the query handler would ask for, in
// the same tenant transaction (SET LOCAL ROLE + app.tenant_id, RLS), through the server's own
// database layer (a pg pool of 10, or PGlite), behind a bare node:http handler: no Fastify, no
// token, no session check, no URL grant, no schema validation, JSON.stringify of the rows.
//
//   node --import tsx bench/lib/entity-list-peer.ts \
//     '{"target":…,"tenantId":"2","port":18123,"entity":"SysUser"}'
import http from 'node:http';
import { ENTITIES } from '@shuili/contract';
import { listCallOf, runListCall, type ListCall } from './entity-list-sql';
import { openTarget, type Target } from '@shuili/test-support/database-target';

async function main() {
  const { target, tenantId, port, entity } = JSON.parse(process.argv[2]!) as {
    target: Target;
    tenantId: string;
    port: number;
    entity: string;
  };
  const declared = ENTITIES.find((candidate) => candidate.name === entity);
  if (!declared) throw new Error(`no entity ${entity}`);
  const db = await openTarget(target, 10); // the server's pool size
  const calls = new Map<string, ListCall>();

  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://peer');
      if (url.pathname === '/ready') return void response.end('ok');
      let call = calls.get(url.search);
      if (!call) calls.set(url.search, (call = listCallOf(declared, url.searchParams)));
      const body = JSON.stringify(await runListCall(db, tenantId, declared, call));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  server.keepAliveTimeout = 72_000;
  server.listen(port, '127.0.0.1');

  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void db.close().then(() => process.exit(0));
  });
}

await main();
