// One process of a test fleet that paces its requests: a Pacer on a RobotsCache on a Redis
// store (the built package), with the options of argv[2] (JSON: redisUrl, prefix, the cache's
// store timeouts, and `pacer`, the Pacer's options). Reads one JSON request a line on stdin:
// {id, op: 'crawl', urls, parallel} requests each URL through the pacer (one after the other,
// or all at once) and writes {id, results: [{status, waitedMs, startedAt}], stats}; {id, op: 'hold', url}
// acquires a slot, writes {id}, and never releases it; {id, op: 'warm', url} fetches url once
// outside the pacer, so that loading fetch and opening a connection do not delay a recorded
// start. Store events are written as {event}.
import { createInterface } from 'node:readline';
import { Pacer, RobotsCache } from '../../dist/index.js';
import { connectRedisStore } from '../../dist/redis/index.js';

const options = JSON.parse(process.argv[2]);
const store = await connectRedisStore(options.redisUrl, { prefix: options.prefix, connectTimeoutMs: 500 });
const cache = new RobotsCache({
  agent: 'ExampleBot',
  store,
  storeTimeoutMs: options.storeTimeoutMs,
  storeRetryMs: options.storeRetryMs,
  onStoreEvent: (event) => process.stdout.write(`${JSON.stringify({ event: event.type })}\n`),
});
const pacer = new Pacer({ cache, ...options.pacer });

/** One request through the pacer: how long acquire waited, and the response's status. */
async function request(url) {
  const asked = Date.now();
  const slot = await pacer.acquire(url);
  const waitedMs = Date.now() - asked;
  const { startedAt } = slot;
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    slot.release({ status: response.status, headers: response.headers });
    return { status: response.status, waitedMs, startedAt };
  } catch (error) {
    slot.release({ error });
    return { status: 0, waitedMs, startedAt };
  }
}

async function crawl(urls, parallel) {
  if (parallel) return Promise.all(urls.map(request));
  const results = [];
  for (const url of urls) results.push(await request(url));
  return results;
}

const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const { id, op, urls, url, parallel } = JSON.parse(line);
  if (op === 'hold') {
    await pacer.acquire(url);
    reply({ id });
  } else if (op === 'warm') {
    await (await fetch(url)).arrayBuffer();
    reply({ id });
  } else {
    void crawl(urls, parallel).then((results) => reply({ id, results, stats: pacer.stats() }));
  }
}
await store.close();
