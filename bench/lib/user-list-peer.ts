// The user-list benchmark's peer: the SQL the server runs for a page of users, and nothing else.
// The statements come from the server's own entity code (entityRepo.count and entityRepo.list of
// the SysUser declaration, filtered by filterOf), recorded once per query string, then executed
// in the same tenant transaction (SET LOCAL ROLE + app.tenant_id, RLS) through the server's own
// database layer (a pg pool of 10, or PGlite), behind a bare node:http handler: no Fastify, no
// token, no session check, no URL grant, no schema validation, JSON.stringify of the rows.
//
//   node --import tsx bench/lib/user-list-peer.ts '{"target":…,"tenantId":"2","port":18123}'
import http from 'node:http';
import { openTarget, type Target } from './user-list-data';
import { pageStatements } from './user-list-sql';

async function main() {
  const { target, tenantId, port } = JSON.parse(process.argv[2]!) as {
    target: Target;
    tenantId: string;
    port: number;
  };
  const db = await openTarget(target, 10); // the server's pool size
  const cache = new Map<string, ReturnType<typeof pageStatements>>();

  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://peer');
      if (url.pathname === '/ready') return void response.end('ok');
      let statements = cache.get(url.search);
      if (!statements) cache.set(url.search, (statements = pageStatements(url.searchParams)));
      const { count, list, currentPage, pageSize } = await statements;
      const [total, rows] = await db.tenant(tenantId, (sql) =>
        Promise.all([
          sql.query<{ total: number }>(count.text, count.values).then((r) => r.rows[0]!.total),
          sql.query(list.text, list.values).then((r) => r.rows),
        ]),
      );
      const body = JSON.stringify({
        code: 200,
        message: 'success',
        data: { list: rows, total, currentPage, pageSize },
      });
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
