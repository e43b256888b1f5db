// A recorder of raw request-targets: a plain TCP server on 127.0.0.1 (node:net, so that nothing
// parses or normalises the request) that keeps the target of each request line byte for byte
// and answers 200 once the request's head is in. One port per URL, so that a client's request
// is tied to the URL it was given whatever the client makes of its path. Plain JavaScript, so
// that scripts/test-browser.mjs records Chromium with it too (types: recorder.d.mts).
import { createServer } from 'node:net';

/**
 * Starts one listener per URL path in `paths` and returns, for each, its URL and the targets
 * received on it (latin1 strings: one char per byte), and stop() to close them all.
 */
export async function startRecorder(paths) {
  const listeners = await Promise.all(paths.map(() => listen()));
  return {
    urls: paths.map((path, i) => `http://127.0.0.1:${listeners[i].port}${path}`),
    targets: listeners.map((l) => l.targets),
    stop: () => Promise.all(listeners.map((l) => new Promise((resolve) => l.server.close(resolve)))),
  };
}

/** One listener: its port, its server and the targets recorded. */
function listen() {
  const targets = [];
  const server = createServer((socket) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      head += chunk;
      // Answered once the whole head is in, so that no client sees its request cut off.
      if (!head.includes('\r\n\r\n')) return;
      const line = head.slice(0, head.indexOf('\r\n'));
      // "GET <target> HTTP/1.1": the target is between the first and the last space.
      const target = line.slice(line.indexOf(' ') + 1, line.lastIndexOf(' '));
      if (!targets.includes(target)) targets.push(target);
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
      head = '';
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, server, targets })));
}
