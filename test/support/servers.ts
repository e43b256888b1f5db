// Real HTTP servers on 127.0.0.1 for the fetch and cache tests: each server is one authority,
// answers through a handler the test gives it, and counts the requests it received. A proxy
// forwards requests to them, and a TLS server serves a self-signed certificate.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Handler = (req: IncomingMessage, res: ServerResponse, site: Site) => void;

export interface Site {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  /** The handler can be replaced between requests. */
  handler: Handler;
  server: Server;
}

/** A request listener that counts the request by path, then answers with `site`'s handler. */
function counted(site: Site): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    site.hits.set(req.url ?? '', (site.hits.get(req.url ?? '') ?? 0) + 1);
    site.handler(req, res, site);
  };
}

/** Starts `count` servers on 127.0.0.1 (ephemeral ports) with the same handler. */
export async function startSites(count: number, handler: Handler): Promise<Site[]> {
  const sites: Site[] = [];
  for (let i = 0; i < count; i++) {
    const site = { hits: new Map<string, number>(), handler } as Site;
    site.server = createServer(counted(site));
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    sites.push(site);
  }
  return sites;
}

/** Stops the servers, cutting open connections (some tests leave requests hanging on purpose). */
export async function stopSites(sites: { server: Server }[]): Promise<void> {
  await Promise.all(
    sites.map((site) => new Promise<void>((resolve) => {
      site.server.closeAllConnections();
      site.server.close(() => resolve());
    })),
  );
}

/**
 * An origin on 127.0.0.1 that refuses connections: a closed port below the range the kernel
 * hands out for listen(0). A stopped server's port is no such origin, since a server another
 * test file starts meanwhile (test files run in parallel) can be given it.
 */
export async function refusedOrigin(): Promise<string> {
  const range = existsSync('/proc/sys/net/ipv4/ip_local_port_range') ? readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8') : '';
  const lowest = Number(/^\s*(\d+)/.exec(range)?.[1] ?? 32768);
  for (let port = lowest - 1; port > lowest - 200; port--) {
    if (await refuses(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error('refusedOrigin: no closed port below the ephemeral range');
}

/** Whether a connection to 127.0.0.1:`port` is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A handler that serves `body` for /robots.txt (with `headers`) and 404 elsewhere. */
export function serve(body: string | Uint8Array, headers: Record<string, string> = {}, status = 200): Handler {
  return (req, res) => {
    if (req.url !== '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
  };
}

export interface Proxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What it forwarded, in order: `GET <absolute URL>` or `CONNECT <host:port>`. */
  forwarded: string[];
  /** Every request it received, forwarded or not: `<method> <request-target>`. */
  received: string[];
  /** The Proxy-Authorization header of every request it received, '' where there was none. */
  authorizations: string[];
  /** When set, only requests with this Proxy-Authorization are forwarded; the others get 407. */
  credentials: string | undefined;
  /** When set, every request is answered with this status instead of forwarded. */
  refuse: number | undefined;
  server: Server;
}

/** Records `req`; the status `proxy` answers it with itself (407 or `refuse`), or undefined to forward it. */
function proxyAnswer(proxy: Proxy, req: IncomingMessage): number | undefined {
  const authorization = req.headers['proxy-authorization'];
  proxy.received.push(`${req.method} ${req.url}`);
  proxy.authorizations.push(authorization ?? '');
  if (proxy.credentials !== undefined && authorization !== proxy.credentials) return 407;
  return proxy.refuse;
}

/** Forwards an absolute-form request to its origin, without the proxy's own header. */
function forward(proxy: Proxy, req: IncomingMessage, res: ServerResponse): void {
  const status = proxyAnswer(proxy, req);
  if (status !== undefined) {
    res.writeHead(status, status === 407 ? { 'proxy-authenticate': 'Basic realm="proxy"' } : {}).end();
    return;
  }
  proxy.forwarded.push(`${req.method} ${req.url}`);
  const { 'proxy-authorization': _, ...headers } = req.headers;
  const upstream = request(req.url ?? '', { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** Opens the tunnel a CONNECT asks for: bytes both ways between the client and host:port. */
function tunnel(proxy: Proxy, req: IncomingMessage, client: Socket, head: Buffer): void {
  const status = proxyAnswer(proxy, req);
  if (status !== undefined) {
    client.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\n\r\n`);
    return;
  }
  proxy.forwarded.push(`CONNECT ${req.url}`);
  const { hostname, port } = new URL(`http://${req.url}`);
  const upstream = connect(Number(port), hostname, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(client).on('error', () => undefined);
    client.pipe(upstream);
  });
  // Either side ending ends the tunnel: an HTTP exchange needs no half-open connection.
  for (const [from, to] of [[upstream, client], [client, upstream]]) {
    from.on('error', () => to.destroy());
    from.on('end', () => to.destroy());
    from.on('close', () => to.destroy());
  }
}

/** An HTTP proxy on 127.0.0.1 that forwards absolute-form requests and CONNECT tunnels. */
export async function startProxy(): Promise<Proxy> {
  const proxy = { forwarded: [], received: [], authorizations: [], credentials: undefined, refuse: undefined } as unknown as Proxy;
  proxy.server = createServer((req, res) => forward(proxy, req, res));
  proxy.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(proxy, req, client, head));
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  return proxy;
}

/**
 * An https server on 127.0.0.1 with a self-signed certificate for that address (made with the
 * openssl command), answering with `handler`; `certificate` is the PEM a client must trust.
 */
export async function startTlsSite(handler: Handler): Promise<Site & { certificate: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const site = { hits: new Map<string, number>(), handler, certificate } as Site & { certificate: string };
    site.server = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: certificate }, counted(site));
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.origin = `https://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    return site;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
