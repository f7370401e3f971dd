import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RigClient } from '../card-reader-test-rig';
import { startCardReaderService, type CardReaderService } from '../server';
import { PcscReaderBackend } from './pcsc';

// No machine running the tests has a reader, and most lack the native module: the service must
// start all the same and say why there is no reader.
describe('PC/SC backend without its native module', () => {
  let service: CardReaderService;
  let client: RigClient;
  beforeAll(async () => {
    service = await startCardReaderService({
      port: 0,
      origins: ['http://localhost:8080'],
      backend: new PcscReaderBackend({
        keyA: new Uint8Array(6).fill(0xff),
        modules: ['@shuili/no-such-pcsc-module'],
      }),
    });
    client = await RigClient.open(service.url);
  });
  afterAll(async () => {
    client?.close();
    await service?.close();
  });

  it('reports no reader, naming the module to install', async () => {
    const status = await client.send({ type: 'status' });
    expect(status).toMatchObject({
      ok: true,
      result: { backend: 'pcsc', readerPresent: false, cardPresent: false },
    });
    expect((status as { result: { problem: string } }).result.problem).toMatch(
      /no PC\/SC module could be loaded \(@shuili\/no-such-pcsc-module: not installed\).*npm install/,
    );
    expect(await client.send({ type: 'read' })).toMatchObject({
      ok: false,
      error: { code: 'NO_READER' },
    });
    expect(await client.send({ type: 'simulate.remove' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SIMULATED' },
    });
  });
});
