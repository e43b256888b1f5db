// The package as a consumer gets it: `npm pack`, installed into a fresh folder, then used from
// an ES module (the README's quick start), a CommonJS file, a TypeScript "module": "nodenext"
// CommonJS build, and an application bundled for Node that runs a RobotsPool; and the crawlee
// example it ships, installed with the command examples/README.md gives and run on a site.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, run as runCommand } from './runtimes/packed.mjs';
import { statedOutput } from './support/examples.js';
import { startSites, stopSites } from './support/servers.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const examplesReadme = readFileSync(join(root, 'examples/README.md'), 'utf8');

let work: string;
let consumer: string;
let packed: string[];
let installLog: string;
let removeConsumer: () => void;

function run(file: string, args: string[], cwd: string): string {
  return runCommand(file, args, { cwd });
}

/** The ```js block under a README heading. */
function readmeBlock(heading: string): string {
  const section = readme.slice(readme.indexOf(`## ${heading}\n`));
  return /```js\n([\s\S]*?)```/.exec(section)![1];
}

beforeAll(() => {
  ({ dir: consumer, files: packed, installLog, remove: removeConsumer } = installPacked());
  work = mkdtempSync(join(tmpdir(), 'robots-wasm-package-'));
}, 120_000);

afterAll(() => {
  removeConsumer();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships the build, the license and small declarations, and nothing that points elsewhere', () => {
    expect(packed).toContain('LICENSE');
    expect(packed).toContain('dist/index.js');
    expect(packed).toContain('dist/pool/index.js');
    expect(packed).toContain('dist/compat/robots-parser.js');
    expect(packed).toContain('dist/compat/crawlee.js');
    expect(packed).toContain('dist/redis/index.js');
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    const binaryTypes = readFileSync(join(consumer, 'node_modules/robots-wasm/dist/wasm/binary.generated.d.ts'), 'utf8');
    expect(binaryTypes.length).toBeLessThan(200);
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/robots-wasm/package.json'), 'utf8'));
    expect(manifest.repository).toBeDefined();
    expect(manifest.homepage).toBeDefined();
    expect(manifest.keywords).toContain('robots.txt');
  });

  it('installs without warnings', () => {
    expect(installLog).not.toMatch(/warn/i);
  });
});

describe('consumers of the installed package', () => {
  it('installs the robots-wasm command', () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    expect(run(join(consumer, 'node_modules/.bin/robots-wasm'), ['--version'], consumer).trim()).toBe(`robots-wasm ${version}`);
    writeFileSync(join(consumer, 'robots.txt'), 'User-agent: *\nDisallow: /private\n');
    expect(run(join(consumer, 'node_modules/.bin/robots-wasm'), ['explain', 'robots.txt', '--agent', 'Bot', '/private/a'], consumer)).toContain('disallow\t/private/a');
  });

  it("runs the README's quick start as an ES module", () => {
    const code = readmeBlock('Quick start');
    writeFileSync(join(consumer, 'quick-start.mjs'), code);
    expect(run(process.execPath, ['quick-start.mjs'], consumer).trimEnd().split('\n')).toEqual(statedOutput(code));
  });

  it('loads with require() from a .cjs file, every entry point included', () => {
    writeFileSync(
      join(consumer, 'consumer.cjs'),
      `const { RobotsTxt, init } = require('robots-wasm');
       const { RobotsPool } = require('robots-wasm/pool');
       const robotsParser = require('robots-wasm/robots-parser');
       const { RobotsTxtFile } = require('robots-wasm/crawlee');
       const { connectRedisStore, RedisStore } = require('robots-wasm/redis');
       // The redis package is an optional peer: not installed here, so connecting says what to install.
       connectRedisStore('redis://127.0.0.1:1').catch((error) => console.log(typeof RedisStore, error.message));
       const old = robotsParser('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /private\\n');
       console.log(typeof robotsParser, old.isAllowed('https://example.com/private/a', 'Bot'), old.isAllowed('https://other.example/', 'Bot'));
       console.log(RobotsTxtFile.from('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /x\\n').isAllowed('https://example.com/x'));
       const robots = RobotsTxt.parse('User-agent: *\\nDisallow: /private\\n');
       init().then(async () => {
         const pool = new RobotsPool({ threads: 1, minUrls: 1 });
         const verdicts = await pool.checkMany(robots.matcher('Bot'), ['/private/a', '/public']);
         await pool.close();
         console.log(robots.isAllowed('https://example.com/private/a', 'Bot'), robots.isAllowed('https://example.com/a', 'Bot'), verdicts.join(','));
       });`,
    );
    expect(run(process.execPath, ['consumer.cjs'], consumer).trim().split('\n')).toEqual([
      'function false undefined',
      'false',
      'function robots-wasm/redis needs the redis package: npm install redis',
      'false true 0,1',
    ]);
  });

  it('compiles and runs as a TypeScript "module": "nodenext" CommonJS build', () => {
    const project = join(work, 'ts-consumer');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ts-consumer', private: true, type: 'commonjs' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, outDir: 'out', rootDir: 'src', types: [] } }),
    );
    writeFileSync(
      join(project, 'src/main.ts'),
      `import { RobotsTxt, type Explanation } from 'robots-wasm';
       import robotsParser = require('robots-wasm/robots-parser');
       const robots = RobotsTxt.parse('User-agent: *\\nDisallow: /private\\n');
       const why: Explanation = robots.explain('/private/a', 'Bot');
       const old: boolean | undefined = robotsParser('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /x\\n').isAllowed('https://example.com/x');
       console.log(why.allowed, why.rule?.line, robots.matcher('Bot').checkMany(['/a', '/private']).join(','), old);`,
    );
    // The installed package, by a link: the consumer's node_modules resolves it as any package.
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    mkdirSync(join(project, 'node_modules'));
    cpSync(join(consumer, 'node_modules/robots-wasm'), join(project, 'node_modules/robots-wasm'), { recursive: true });
    run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(readFileSync(join(project, 'out/main.js'), 'utf8')).toMatch(/require\("robots-wasm"\)/);
    expect(run(process.execPath, ['out/main.js'], project).trim()).toBe('false 2 1,0 false');
  });

  it('runs a RobotsPool from an application bundled into one file for Node', async () => {
    writeFileSync(
      join(consumer, 'app.mjs'),
      `import { RobotsTxt } from 'robots-wasm';
       import { RobotsPool } from 'robots-wasm/pool';
       const pool = new RobotsPool({ threads: 2, cpus: 3, minUrls: 10, jobUrls: 100 });
       const matcher = RobotsTxt.parse('user-agent: *\\ndisallow: /a\\n').matcher('Bot');
       const urls = Array.from({ length: 1000 }, (_, i) => (i % 2 ? '/a' : '/b'));
       const verdicts = await pool.checkMany(matcher, urls);
       console.log(verdicts.reduce((a, b) => a + b, 0), pool.startedWorkers);
       await pool.close();`,
    );
    const out = join(work, 'bundled');
    mkdirSync(out);
    await build({ entryPoints: [join(consumer, 'app.mjs')], bundle: true, platform: 'node', format: 'esm', outfile: join(out, 'app.mjs'), logLevel: 'warning' });
    // Nothing but the bundle beside it: no worker file to find.
    expect(readdirSync(out)).toEqual(['app.mjs']);
    expect(run(process.execPath, [join(out, 'app.mjs')], out).trim()).toBe('500 2');
  });
});

describe('examples/crawlee, as examples/README.md says to run it', () => {
  const [, folder, install, script] = /```sh\ncd (\S+) && (npm install[^&\n]*) && node (\S+) /.exec(examplesReadme) ?? [];
  const installed = () => join(consumer, 'node_modules/robots-wasm');

  it('names files that exist wherever it is read: in the repository and in the installed package', () => {
    const named = [...examplesReadme.matchAll(/`([\w-]+\/(?:[\w.-]+\.(?:mjs|txt|html|json))?)`/g)].map((m) => m[1]);
    expect(named).toEqual(['crawlee/', 'crawlee/robots.mjs']);
    for (const base of [root, installed()]) {
      for (const file of [...named.map((f) => join('examples', f)), join(folder, script), join(folder, 'package.json')]) {
        expect(existsSync(join(base, file)), `${base}: ${file}`).toBe(true);
      }
    }
  });

  it("installs with that one command, robots-wasm packed from the package around it, and crawls a site within its robots.txt", async () => {
    expect(install).toBe('npm install --install-links');
    const example = join(installed(), folder);
    // The registry is asked only for what the npm cache lacks.
    const env = { ...process.env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    runCommand('sh', ['-c', install], { cwd: example, env });
    const copy = join(example, 'node_modules/robots-wasm');
    expect(lstatSync(copy).isSymbolicLink()).toBe(false);
    expect(readdirSync(copy).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'examples', 'package.json']);
    expect(existsSync(join(copy, 'examples/crawlee/node_modules'))).toBe(false);
    const [site] = await startSites(1, (req, res) => {
      if (req.url === '/robots.txt') return void res.end('User-agent: *\nDisallow: /private\n');
      res.setHeader('content-type', 'text/html');
      res.end(`<title>page ${req.url}</title><a href="/a">a</a> <a href="/private/x">private</a>`);
    });
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [script, `${site.origin}/`], { cwd: example, env, encoding: 'utf8' });
      expect(stdout).toContain(`${site.origin}/a: page /a`);
      expect([...site.hits.keys()].sort()).toEqual(['/', '/a', '/robots.txt']);
    } finally {
      await stopSites([site]);
    }
  }, 180_000);
});

describe('engines', () => {
  it('names Node 20 and exactly the lines npm run test:node runs the suite on', () => {
    const engines: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
    const script = readFileSync(join(root, 'scripts/test-node.mjs'), 'utf8');
    const lines = JSON.parse(/const LINES = (\[[^\]]*\])/.exec(script)![1].replaceAll("'", '"')) as string[];
    const majors = engines.split('||').map((range) => /\^(\d+)\./.exec(range.trim())?.[1]);
    expect(majors).toEqual(['20', ...lines]);
  });
});
