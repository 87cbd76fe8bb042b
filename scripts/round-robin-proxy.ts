import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * A tiny TCP load balancer for several instances on one machine (the multi-instance bench,
 * scripts/bench-cluster.ts; trying a cluster by hand): each new connection goes to the next instance
 * in turn, as an L4 balancer does (HTTP keep-alive then keeps a client on its instance). An instance
 * that refuses the connection is skipped for the next one. Loopback only; no TLS (docs/deploy.md puts a
 * real proxy in front in production).
 *
 *   npx tsx scripts/round-robin-proxy.ts [--port 8080] 127.0.0.1:8081 127.0.0.1:8082
 */
export interface Target {
  host: string;
  port: number;
}

export interface RoundRobinProxy {
  port: number;
  /** Connections handed to each target so far. */
  connections: number[];
  close(): Promise<void>;
}

export function parseTarget(value: string): Target {
  const match = /^(?:(.+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !(port > 0 && port < 65536)) throw new Error(`a target is host:port or a port, not ${JSON.stringify(value)}`);
  return { host: match[1] ?? '127.0.0.1', port };
}

export function startRoundRobinProxy(targets: readonly Target[], port = 0, host = '127.0.0.1'): Promise<RoundRobinProxy> {
  if (targets.length === 0) throw new Error('round-robin proxy: no targets');
  let next = 0;
  const connections = targets.map(() => 0);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    client.pause();
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const connect = (tries: number) => {
      const index = next++ % targets.length;
      const upstream = net.connect(targets[index]!);
      let connected = false;
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        if (connected) client.destroy();
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Refused (the instance is down): the next one, unless every one was tried.
        if (!connected && error.code === 'ECONNREFUSED' && tries + 1 < targets.length && !client.destroyed) connect(tries + 1);
        else client.destroy();
      });
      upstream.once('connect', () => {
        connected = true;
        connections[index] = (connections[index] ?? 0) + 1;
        client.on('close', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
    };
    connect(0);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        connections,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

// As a command: listen until stopped; the first line says where.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({ options: { port: { type: 'string' } }, allowPositionals: true, strict: true });
  try {
    const targets = positionals.map(parseTarget);
    const proxy = await startRoundRobinProxy(targets, Number(values.port ?? 0));
    console.log(`round-robin-proxy: http://127.0.0.1:${proxy.port} -> ${targets.map((t) => `${t.host}:${t.port}`).join(', ')}`);
    const stop = () => void proxy.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } catch (error) {
    console.error(`round-robin-proxy: ${(error as Error).message}`);
    process.exit(2);
  }
}
