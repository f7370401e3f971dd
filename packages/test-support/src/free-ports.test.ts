import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort, onFreePorts } from './server-process';

const open: net.Server[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      open.push(server);
      resolve(server);
    });
  });
}

describe('freePort', () => {
  it('picks a port below the ephemeral range, which outbound connections and listen(0) never take', async () => {
    const ephemeralStart = await ephemeralRangeStart();
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      if (ephemeralStart > 11_000) expect(port).toBeLessThan(ephemeralStart);
      await listen(port); // it is free (and stays held, so the next pick is another port)
    }
  });
});

// The race CI met: freePort releases its probe, another process binds the port, the child fails.
describe('onFreePorts', () => {
  it('starts again on fresh ports when a port is taken before the start binds it', async () => {
    const tried: number[][] = [];
    const server = await onFreePorts(2, async (ports) => {
      tried.push(ports);
      if (tried.length === 1) await listen(ports[1]!); // someone else takes the second port
      await listen(ports[0]!);
      return listen(ports[1]!);
    });
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toEqual(tried[0]);
    expect((server.address() as net.AddressInfo).port).toBe(tried[1]![1]);
  });

  it('does not retry a failure that is not a taken port', async () => {
    let calls = 0;
    await expect(
      onFreePorts(1, async () => {
        calls += 1;
        throw new Error('migration failed');
      }),
    ).rejects.toThrow('migration failed');
    expect(calls).toBe(1);
  });

  it('gives up after its attempts, with the last failure', async () => {
    let calls = 0;
    await expect(
      onFreePorts(
        1,
        async () => {
          calls += 1;
          throw new Error('Error: Address already in use');
        },
        3,
      ),
    ).rejects.toThrow('Address already in use');
    expect(calls).toBe(3);
  });
});
