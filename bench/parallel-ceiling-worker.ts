// One thread of IndependentPair (bench/parallel-ceiling.ts): builds the same batch as the
// calling thread and checks it whenever asked, answering with the number of verdicts.

import { parentPort, workerData } from 'node:worker_threads';
import { RobotsTxt } from 'robots-wasm';
import { benchUrls } from './inputs.js';
import type { PairTask } from './parallel-ceiling.js';

const { body, agent, count, seed } = workerData as { body: string; agent: string; count: number; seed: number };
const robots = RobotsTxt.parse(body);
const matcher = robots.matcher(agent);
const urls = benchUrls(count, robots, seed);
const lines = new TextEncoder().encode(urls.join('\n'));
const port = parentPort!;
port.on('message', (task: PairTask) => {
  port.postMessage((task === 'checkLines' ? matcher.checkLines(lines) : matcher.checkMany(urls)).length);
});
port.postMessage('ready');
