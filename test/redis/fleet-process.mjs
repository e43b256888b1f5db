// One process of a test fleet: a RobotsCache on a Redis store (the built package), with the
// options of argv[2] (JSON). Reads one JSON request a line on stdin, {id, urls}, and writes
// {id, verdicts, fetches}; store events are written as {event} lines as they happen.
import { createInterface } from 'node:readline';
import { RobotsCache } from '../../dist/index.js';
import { connectRedisStore } from '../../dist/redis/index.js';

const options = JSON.parse(process.argv[2]);
const store = await connectRedisStore(options.redisUrl, { prefix: options.prefix });
const cache = new RobotsCache({
  agent: 'ExampleBot',
  store,
  timeoutMs: options.timeoutMs,
  storeTimeoutMs: options.storeTimeoutMs,
  storeRetryMs: options.storeRetryMs,
  minTtlMs: options.minTtlMs,
  onStoreEvent: (event) => process.stdout.write(`${JSON.stringify({ event: event.type })}\n`),
});

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { id, urls } = JSON.parse(line);
  const verdicts = [...(await cache.checkMany(urls))].join('');
  process.stdout.write(`${JSON.stringify({ id, verdicts, fetches: cache.fetches })}\n`);
}
await store.close();
