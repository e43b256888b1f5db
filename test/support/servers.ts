// Real HTTP servers on 127.0.0.1 for the fetch and cache tests: each server is one authority,
// answers through a handler the test gives it, and counts the requests it received.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Starts `count` servers on 127.0.0.1 (ephemeral ports) with the same handler. */
export async function startSites(count: number, handler: Handler): Promise<Site[]> {
  const sites: Site[] = [];
  for (let i = 0; i < count; i++) {
    const site = { hits: new Map<string, number>(), handler } as Site;
    site.server = createServer((req, res) => {
      site.hits.set(req.url ?? '', (site.hits.get(req.url ?? '') ?? 0) + 1);
      site.handler(req, res, site);
    });
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    sites.push(site);
  }
  return sites;
}

/** Stops the servers, cutting open connections (some tests leave requests hanging on purpose). */
export async function stopSites(sites: Site[]): Promise<void> {
  await Promise.all(
    sites.map((site) => new Promise<void>((resolve) => {
      site.server.closeAllConnections();
      site.server.close(() => resolve());
    })),
  );
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
