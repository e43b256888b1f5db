// The harness's HTTP server on 127.0.0.1 (a free port): the browser page and its bundles,
// and a robots.txt that fetchRobotsTxt reads in every runtime. Node only.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { ROBOTS_TXT } from './checks.mjs';

const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>robots-wasm</title><script type="module" src="/page.js"></script></head><body></body></html>';

/** Starts the server with `scripts` (path to JavaScript text) beside the page; returns it and its origin. */
export async function startServer(scripts = {}) {
  // Compressed, so that each runtime's transport has to decode it.
  const robots = gzipSync(ROBOTS_TXT);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip', 'cache-control': 'max-age=600', etag: '"v1"' }).end(robots);
    } else if (path === '/') {
      // `?csp=<policy>`: the page is served under that Content-Security-Policy.
      const csp = url.searchParams.get('csp');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(csp !== null && { 'content-security-policy': csp }) }).end(PAGE);
    } else if (path === '/favicon.ico') {
      // Chromium asks every new page for one; a 404 would be logged as a console error.
      res.writeHead(204).end();
    } else if (scripts[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(scripts[path]);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}
