// Real HTTP clients sending URLs to a recorder (recorder.mjs): this runtime's fetch and http.get
// (from a string and from a URL object), curl (libcurl's reading: --globoff) and curl
// --path-as-is, wget, and Python's urllib. A client that refuses a URL sends nothing for it.
// curl, wget and python3 are Debian packages; they are installed when missing and this runs as
// root (CI), and their absence is an error otherwise.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { get } from 'node:http';

/** The clients run, by name. */
export const CLIENT_NAMES = ['fetch', 'http.get', 'http.get(URL)', 'curl', 'curl --path-as-is', 'wget', 'python urllib'] as const;

const PACKAGES: Record<string, string> = { curl: 'curl', wget: 'wget', python3: 'python3' };

/** Makes sure `command` is installed: apt-get installs its package as root; else a clear error. */
export function ensureCommand(command: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`${command} is missing: install Debian's ${PACKAGES[command]} (apt-get install -y ${PACKAGES[command]}) and rerun`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-q', PACKAGES[command]], { stdio: 'ignore', env });
}

/** Sends each of `urls` with this runtime's fetch, http.get(string) and http.get(URL), one after another. */
export async function sendFromNode(urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    await fetch(url).then((r) => r.arrayBuffer(), () => undefined);
    await httpGet(url);
    await httpGet(url, true);
  }
}

function httpGet(url: string, asUrl = false): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = get(asUrl ? new URL(url) : url, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      request.on('error', () => resolve());
    } catch {
      // refused: nothing was sent
      resolve();
    }
  });
}

/** Runs `command` to its end (or its timeout), feeding it `input`: asynchronously, so that a recorder in this process can answer it. */
function run(command: string, args: string[], input = ''): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'], timeout: 120_000 });
    child.on('close', () => resolve());
    child.on('error', () => resolve());
    child.stdin.end(input);
  });
}

/** Sends `urls` with curl (both ways), wget and Python's urllib: one process per client. */
export async function sendFromTools(urls: readonly string[]): Promise<void> {
  for (const command of ['curl', 'wget', 'python3']) ensureCommand(command);
  const eachToNull = urls.flatMap((url) => ['--output', '/dev/null', url]);
  await run('curl', ['--globoff', '--silent', '--max-time', '10', ...eachToNull]);
  await run('curl', ['--path-as-is', '--globoff', '--silent', '--max-time', '10', ...eachToNull]);
  await run('wget', ['--quiet', '--tries=1', '--timeout=10', '--output-document=/dev/null', ...urls]);
  const python = 'import json, sys, urllib.request\nfor url in json.load(sys.stdin):\n    try:\n        urllib.request.urlopen(url, timeout=10).read()\n    except Exception:\n        pass\n';
  await run('python3', ['-c', python], JSON.stringify(urls));
}
