// The monitor benchmark's peer for the area device list: the same page's plain SQL
// (area-list-sql.ts) in the same tenant transaction, through the server's own database layer (a
// pg pool of 10, or PGlite), behind a bare node:http handler: no Fastify, no token, no session
// check, no URL grant, no schema validation, JSON.stringify of the answer.
//
//   node --import tsx bench/lib/area-list-peer.ts '{"target":…,"tenantId":"2","port":18123}'
import http from 'node:http';
import { openTarget, type Target } from '@shuili/test-support/database-target';
import { areaListPage } from './area-list-sql';

async function main() {
  const { target, tenantId, port } = JSON.parse(process.argv[2]!) as {
    target: Target;
    tenantId: string;
    port: number;
  };
  const db = await openTarget(target, 10); // the server's pool size

  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://peer');
      if (url.pathname === '/ready') return void response.end('ok');
      const body = JSON.stringify(await areaListPage(db, tenantId, url.searchParams));
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
