// A real redis-server for the fleet tests (Debian's package: `apt-get install redis-server`),
// on a free loopback port, with no persistence, started and stopped by the test; and fleet
// processes: node child processes that each run a RobotsCache on that server (fleet-process.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { stopSites, type Site } from '../support/servers.js';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server process on 127.0.0.1:port that can be stopped and started again on the same port. */
export class RedisServer {
  readonly url: string;
  #process: ChildProcess | undefined;

  private constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.resume();
    return server;
  }

  /** Starts the server (again) and resolves once it accepts connections. */
  async resume(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.#process = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      const client = createClient({ url: this.url, socket: { reconnectStrategy: false } });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.ping();
        await client.close();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error('redis-server did not start within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Stops the server without closing anything (SIGSTOP): connections stay open and commands get no answer. */
  freeze(): void {
    this.#process?.kill('SIGSTOP');
  }

  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void {
    this.#process?.kill('SIGCONT');
  }

  /** Kills the server (as a crash would) and resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
      child.kill('SIGCONT');
    });
  }

  /** A client of the test's own, for looking at and writing keys directly. */
  async client() {
    const client = createClient({ url: this.url });
    client.on('error', () => {});
    await client.connect();
    return client;
  }
}

/** How a fleet process sets up its RobotsCache (see fleet-process.mjs). */
export interface FleetOptions {
  redisUrl: string;
  prefix: string;
  timeoutMs?: number;
  storeTimeoutMs?: number;
  storeRetryMs?: number;
  minTtlMs?: number;
  /** The fleet key (connectRedisStore's `key`). */
  key?: string;
  /** The store's client returns Buffers rather than strings. */
  bufferReplies?: boolean;
}

/** A fleet process's answer to a check: verdicts, its fetches so far, its peak resident set size. */
export interface CheckReply {
  verdicts: string;
  fetches: number;
  maxRssKb: number;
}

/**
 * A child process of a test fleet speaking JSON lines: a request {id, ...} on stdin gets a reply
 * {id, ...} on stdout, and {event} lines (store events) are kept as they come.
 */
export class FleetChild<Reply> {
  /** The store events the process reported, in order. */
  readonly events: string[] = [];
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (reply: Reply) => void>();
  #next = 0;
  readonly exited: Promise<number | null>;

  constructor(script: string, options: object) {
    this.#child = spawn(process.execPath, [new URL(script, import.meta.url).pathname, JSON.stringify(options)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.#child.once('exit', resolve));
    createInterface({ input: this.#child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Reply & { id?: number; event?: string };
      if (message.event !== undefined) this.events.push(message.event);
      else this.#waiting.get(message.id!)?.(message);
    });
  }

  /** Sends `request` and resolves with the process's reply to it. */
  ask(request: object): Promise<Reply> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#child.stdin!.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  /** Ends the process as a crash would. */
  kill(): Promise<number | null> {
    this.#child.kill('SIGKILL');
    return this.exited;
  }

  /** Ends the process: its input closes and it exits. */
  close(): Promise<number | null> {
    this.#child.stdin!.end();
    return this.exited;
  }
}

/** A child process running one RobotsCache on the fleet's store, answering check requests. */
export class FleetProcess extends FleetChild<CheckReply> {
  constructor(options: FleetOptions) {
    super('./fleet-process.mjs', options);
  }

  /** The process's verdicts for `urls` ('1' allowed, '0' not, one char a URL), its fetches so far and its peak RSS. */
  check(urls: string[]): Promise<CheckReply> {
    return this.ask({ urls });
  }
}

/** What a fleet test file shares: its redis-server, and the current test's sites and processes. */
export interface FleetTestState {
  redis: RedisServer;
  sites: Site[];
  /** Killed after each test. */
  processes: { kill(): Promise<unknown> }[];
}

/**
 * Sets up a fleet test file: one redis-server for the file, and after each test its processes
 * killed and its sites (`state.sites`) stopped. `options` gives each test a prefix of its own.
 */
export function fleetTests(name: string) {
  const state: FleetTestState = { redis: undefined as unknown as RedisServer, sites: [], processes: [] };
  let prefixes = 0;
  beforeAll(async () => {
    state.redis = await RedisServer.start();
  });
  afterAll(() => state.redis.stop());
  afterEach(async () => {
    await Promise.all(state.processes.splice(0).map((p) => p.kill()));
    await stopSites(state.sites);
    state.sites = [];
  });
  const startFleet = (count: number, options: FleetOptions): FleetProcess[] => {
    const started = Array.from({ length: count }, () => new FleetProcess(options));
    state.processes.push(...started);
    return started;
  };
  return {
    state,
    fleetOptions: (extra: Partial<FleetOptions> = {}): FleetOptions => ({ redisUrl: state.redis.url, prefix: `${name}${++prefixes}:`, ...extra }),
    startFleet,
    start: (options: FleetOptions): FleetProcess => startFleet(1, options)[0]!,
  };
}
