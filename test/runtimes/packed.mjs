// The package as a user gets it: `npm pack`ed and installed by name into a temporary
// application folder, beside copies of the entry files that import it by that name. Node only.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** The entry files copied next to the installed package. */
const ENTRIES = ['checks.mjs', 'answers.mjs', 'page.mjs', 'worker.mjs'];

/** Runs a command, its output shown only when it fails. */
export function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...options });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${error.status}):\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/**
 * Builds the package when it was never built (the npm scripts build before running, a direct
 * `node scripts/...` may not): what is tested is what is packed.
 */
export function ensureBuilt() {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.log('dist/ is missing: npm run build');
    run('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
}

/**
 * Packs the package and installs the tarball into a new temporary folder, as an application
 * would depend on it. Returns the folder, a function that removes it, the packed file names and
 * what npm printed while installing (a consumer sees its warnings).
 */
export function installPacked() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-app-'));
  try {
    // --ignore-scripts: dist is built (by ensureBuilt() or npm test); packing must not rebuild it.
    const [{ filename, files }] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT }));
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'robots-wasm-app', private: true, type: 'module' }, null, 2)}\n`);
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', join(dir, filename)], { cwd: dir, encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stdout}${install.stderr}`);
    for (const entry of ENTRIES) copyFileSync(join(HERE, entry), join(dir, entry));
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }), files: files.map((f) => f.path), installLog: install.stdout + install.stderr };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The answers `answers.mjs` prints when `command` runs it (with `args`) in the application
 * folder. Asynchronous, so that a server in this process can answer the runtime's requests.
 */
export async function answersFrom(dir, command, args, options = {}) {
  let stdout;
  try {
    ({ stdout } = await promisify(execFile)(command, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20, ...options }));
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${error.code}):\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
  try {
    return JSON.parse(stdout);
  } catch {
    throw new Error(`${command} ${args.join(' ')} printed no JSON:\n${stdout.slice(0, 2000)}`);
  }
}
