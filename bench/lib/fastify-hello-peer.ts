// The framework's ceiling: Fastify's hello world (no logger, no plugins) answering every GET with
// {"hello":"world"}, as the Fastify benchmarks measure it.
//
//   node --import tsx bench/lib/fastify-hello-peer.ts '{"port":18124}'
import Fastify from 'fastify';

const { port } = JSON.parse(process.argv[2]!) as { port: number };
const app = Fastify({ logger: false, keepAliveTimeout: 72_000 });
app.get('/ready', async () => 'ok');
app.get('/*', async () => ({ hello: 'world' }));
await app.listen({ port, host: '127.0.0.1' });

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
