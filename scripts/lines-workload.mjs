// A fixed checkLines workload for scripts/wasm-instructions.mjs: `passes` calls of checkLines
// over `count` bench URLs (bench/inputs.ts, seed 1) generated for the robots.txt at `file`,
// with the agent ExampleBot. Needs `npm run build` and `npx tsc -p tsconfig.bench.json`.
//
// usage: node scripts/lines-workload.mjs file count passes
import { readFileSync } from 'node:fs';
import { benchUrls } from '../build/bench/inputs.js';
import { RobotsTxt } from '../dist/index.js';

const [file, count, passes] = process.argv.slice(2);
if (file === undefined || !(Number(count) > 0) || !(Number(passes) >= 0)) {
  console.error('usage: node scripts/lines-workload.mjs file count passes');
  process.exit(2);
}
const robots = RobotsTxt.parse(readFileSync(file, 'utf8'));
const bytes = new TextEncoder().encode(benchUrls(Number(count), robots).join('\n'));
const matcher = robots.matcher('ExampleBot');
for (let i = 0; i < Number(passes); i++) matcher.checkLines(bytes);
