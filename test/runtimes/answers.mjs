// Prints robots-wasm's answers to the fixed checks as JSON, importing the package by name as
// an application would. Run by Node, Deno and Bun from a folder where the packed package is
// installed; `--init` awaits init() before the first check, `--origin=URL` fetches that
// origin's robots.txt.
import * as lib from 'robots-wasm';
import { runChecks } from './checks.mjs';

const args = globalThis.Deno?.args ?? process.argv.slice(2);
const origin = args.find((arg) => arg.startsWith('--origin='))?.slice('--origin='.length);
const answers = await runChecks(lib, { init: args.includes('--init'), origin });
console.log(JSON.stringify(answers));
