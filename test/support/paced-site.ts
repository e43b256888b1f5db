// A real server on 127.0.0.1 for the pacing tests: it serves a robots.txt and records when each
// other request arrives and how many were in flight at once, answering each as the test says.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSites, type Site } from './servers.js';

/** A recording server and what it saw. */
export interface Recorded {
  site: Site;
  /** When each request other than robots.txt arrived, in order. */
  starts: number[];
  /** The most requests in flight at once. */
  maxInFlight: number;
}

/** How the server answers request n (from 0): a status, headers, and how long it holds the answer back. */
export type Answer = (n: number) => { status: number; headers?: Record<string, string>; holdMs?: number };

/** A server whose robots.txt is `robots` (with `robotsStatus` and `robotsHeaders`), answering request n (from 0) with `answer(n)`; the caller stops `site`. */
export async function recordingSite(robots: string, answer: Answer = () => ({ status: 200 }), robotsStatus = 200, robotsHeaders: Record<string, string> = {}): Promise<Recorded> {
  const rec = { starts: [] as number[], maxInFlight: 0 } as Recorded;
  let inFlight = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/robots.txt') {
      res.writeHead(robotsStatus, { 'content-type': 'text/plain', ...robotsHeaders }).end(robots);
      return;
    }
    const n = rec.starts.length;
    rec.starts.push(Date.now());
    rec.maxInFlight = Math.max(rec.maxInFlight, ++inFlight);
    const { status, headers = {}, holdMs = 0 } = answer(n);
    setTimeout(() => {
      inFlight--;
      res.writeHead(status, headers).end('x');
    }, holdMs);
  };
  [rec.site] = await startSites(1, handler);
  // A first request opens fetch's connection (and loads fetch itself): done here, it does not
  // delay the first recorded start and so shorten the gap after it.
  await (await fetch(`${rec.site.origin}/robots.txt`)).arrayBuffer();
  return rec;
}

/** The time between each start and the one before it. */
export const gaps = (starts: number[]): number[] => starts.slice(1).map((t, i) => t - starts[i]);
