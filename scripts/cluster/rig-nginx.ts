// Debian's nginx in front of the rig's nodes, as a deployment would put a load balancer there:
// run as a child process with every path (prefix, pid, logs, temporary files) in a folder of its
// own, so it needs no root and leaves nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_LIMIT_BYTES } from '@shuili/contract';
import { onFreePorts } from '@shuili/test-support/server-process';

export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  url: string;
  /** Points the upstream at these node ports (nginx reloads its configuration). */
  route(nodePorts: number[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The server's largest upload (UPLOAD_LIMIT_BYTES, the device files' DEVICE_FILE_MAX_BYTES) with
 * room to spare: a larger body must still reach the node, whose refusal is translated and names
 * the field, rather than get nginx's own untranslated 413 page.
 */
const MAX_BODY_MB = Math.ceil((2 * UPLOAD_LIMIT_BYTES) / 1024 / 1024);

function config(dir: string, port: number, nodePorts: number[]): string {
  return `# Written by scripts/cluster/rig-nginx.ts for the multi-node rig (docs/scaling.md).
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? `user ${os.userInfo().username};` : ''}
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  # WebSocket upgrades (the browsers' live MQTT at /mqtt) pass through; other requests keep the
  # upstream connection alive.
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' '';
  }

  upstream shuili {
    # A node that refuses or times out is skipped for 2 s, then tried again (it may be back).
${nodePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }

  server {
    listen 127.0.0.1:${port};
    client_max_body_size ${MAX_BODY_MB}m;

    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    # nginx is the edge: the client's address replaces whatever X-Forwarded-For it sent, and the
    # nodes trust exactly one hop (TRUST_PROXY=1), so limits by client address see the client.
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;

    # A node that is down (killed, restarting, stopping with 503) is skipped: the request goes to
    # the next. nginx never sends a request that reached a node again unless it is idempotent.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;
    proxy_connect_timeout 2s;
    # Long-lived connections (live MQTT over WebSocket, exports, streams) are not cut.
    proxy_read_timeout 1h;
    proxy_send_timeout 1h;
    proxy_buffering off;
    # Which node answered (the last one tried): the device tests read it from the browser's /mqtt
    # handshake to kill the node that holds its live connection. 'always': 101 is not in
    # add_header's default status list.
    add_header X-Upstream $upstream_addr always;

    location / {
      proxy_pass http://shuili;
    }
  }
}
`;
}

/** Starts nginx on a free loopback port in front of the node ports (which need not listen yet). */
export function startNginx(nodePorts: number[]): Promise<RunningNginx> {
  return onFreePorts(1, ([port]) => startNginxOn(port!, nodePorts));
}

async function startNginxOn(port: number, nodePorts: number[]): Promise<RunningNginx> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-nginx-'));
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(conf, config(dir, port, nodePorts));
  const child = spawn(
    NGINX,
    ['-p', dir, '-e', `${dir}/error.log`, '-c', conf, '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let printed = '';
  child.stderr!.on('data', (chunk) => (printed += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    await exited;
    await fs.rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitListening(child, url, () => fs.readFile(`${dir}/error.log`, 'utf8').catch(() => ''));
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${printed}`);
  }
  return {
    url,
    route: async (ports) => {
      await fs.writeFile(conf, config(dir, port, ports));
      child.kill('SIGHUP');
      // The new workers take over at once; the old ones finish what they were serving.
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    stop,
  };
}

async function waitListening(
  child: ChildProcess,
  url: string,
  log: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx did not start on ${url}: ${await log()}`);
    // Any answer is nginx's (a 502 while no node listens yet).
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    // A probe answered by some other listener on a taken port is not nginx's: it has exited.
    if (up && child.exitCode === null) return;
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${await log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
