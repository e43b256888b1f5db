// One process of a test fleet: a RobotsCache on a Redis store (the built package), with the
// options of argv[2] (JSON). Reads one JSON request a line on stdin, {id, urls}, and writes
// {id, verdicts, fetches, maxRssKb}; store events are written as {event} lines as they happen.
// With bufferReplies the store's client returns Buffers, as a client with a type mapping does.
import { createInterface } from 'node:readline';
import { createClient, RESP_TYPES } from 'redis';
import { RobotsCache } from '../../dist/index.js';
import { connectRedisStore, RedisStore } from '../../dist/redis/index.js';

const options = JSON.parse(process.argv[2]);

/** A RedisStore on a client whose replies are Buffers, with a close() like connectRedisStore's. */
async function bufferStore() {
  const client = createClient({ url: options.redisUrl }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.SIMPLE_STRING]: Buffer });
  client.on('error', () => {});
  await client.connect();
  return Object.assign(new RedisStore(client, { prefix: options.prefix, key: options.key }), { close: () => client.close() });
}

const store = options.bufferReplies ? await bufferStore() : await connectRedisStore(options.redisUrl, { prefix: options.prefix, key: options.key });
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
  process.stdout.write(`${JSON.stringify({ id, verdicts, fetches: cache.fetches, maxRssKb: process.resourceUsage().maxRSS })}\n`);
}
await store.close();
