// API report: what each entry point of the package declares, flattened into one file per entry
// in api/: its exports as the built .d.ts files declare them (re-exports followed to their
// declarations, comments removed, sorted by name), then the declarations they reference that
// the entry point does not export. A change to the public surface then shows in review as a
// change to api/, and test/api-report.test.ts fails until the report is written again.
//
// usage: node scripts/api-report.mjs           writes api/*.api.md from dist/ (run `npm run build` first)
//        node scripts/api-report.mjs --check   exits 1 when api/ differs from what dist/ gives
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** The package's entry points (package.json "exports"), and the report each gets. */
export const ENTRIES = [
  { name: 'robots-wasm', types: 'dist/index.d.ts', report: 'api/robots-wasm.api.md' },
  { name: 'robots-wasm/pool', types: 'dist/pool/index.d.ts', report: 'api/robots-wasm-pool.api.md' },
  { name: 'robots-wasm/robots-parser', types: 'dist/compat/robots-parser.d.ts', report: 'api/robots-wasm-robots-parser.api.md' },
  { name: 'robots-wasm/crawlee', types: 'dist/compat/crawlee.d.ts', report: 'api/robots-wasm-crawlee.api.md' },
  { name: 'robots-wasm/redis', types: 'dist/redis/index.d.ts', report: 'api/robots-wasm-redis.api.md' },
];

export const UPDATE_COMMAND = 'npm run build && node scripts/api-report.mjs';

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The statement to print for a declaration: a variable's whole statement. */
function statementOf(declaration) {
  return ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
}

function resolved(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Symbols of dist/ that `node` names in a type position. */
function referencedSymbols(checker, node) {
  const found = [];
  const visit = (n) => {
    let name;
    if (ts.isTypeReferenceNode(n)) name = n.typeName;
    else if (ts.isExpressionWithTypeArguments(n)) name = n.expression;
    else if (ts.isTypeQueryNode(n)) name = n.exprName;
    if (name !== undefined) {
      const symbol = checker.getSymbolAtLocation(name);
      if (symbol !== undefined) {
        const target = resolved(checker, symbol);
        // A mapped type's or generic's own parameter is declared where it is used, not apart.
        const own = (target.flags & ts.SymbolFlags.TypeParameter) !== 0;
        if (!own && target.declarations?.some((d) => d.getSourceFile().fileName.startsWith(DIST))) found.push(target);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The report of one entry point, as text. */
function report(program, entry) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(ROOT, entry.types));
  if (source === undefined) throw new Error(`api-report: ${entry.types} is missing: run npm run build first`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)).sort((a, b) => a.name.localeCompare(b.name));
  const printed = new Map();
  const lines = [];
  const print = (symbol) => {
    for (const declaration of symbol.declarations ?? []) {
      const statement = statementOf(declaration);
      if (printed.has(statement)) continue;
      printed.set(statement, symbol);
      lines.push(printer.printNode(ts.EmitHint.Unspecified, statement, statement.getSourceFile()));
    }
  };
  const exported = new Set();
  for (const symbol of exports) {
    const target = resolved(checker, symbol);
    exported.add(target);
    print(target);
    // Another name for a declaration (`export { a as b }`): its declared name, not `default`.
    const declared = target.declarations?.[0]?.name?.getText() ?? target.name;
    if (symbol.name !== target.name) lines.push(`export { ${declared} as ${JSON.stringify(symbol.name)} };`);
  }
  // What the exports name but this entry point does not export, and what that names in turn.
  const referenced = [];
  const queue = [...printed.keys()];
  const seen = new Set(exported);
  while (queue.length > 0) {
    for (const symbol of referencedSymbols(checker, queue.shift())) {
      if (seen.has(symbol)) continue;
      seen.add(symbol);
      referenced.push(symbol);
      for (const declaration of symbol.declarations ?? []) queue.push(statementOf(declaration));
    }
  }
  if (referenced.length > 0) {
    lines.push('', '// Referenced above, not exported by this entry point:', '');
    for (const symbol of referenced.sort((a, b) => a.name.localeCompare(b.name))) print(symbol);
  }
  return [
    `# ${entry.name}`,
    '',
    `API report of the entry point \`${entry.name}\` (${entry.types}): what it exports, with`,
    're-exports followed to their declarations, sorted by name, comments removed; then the',
    'declarations those reference that it does not export.',
    '',
    `Written by \`${UPDATE_COMMAND}\`; test/api-report.test.ts fails when it differs`,
    'from the build.',
    '',
    '```ts',
    ...lines,
    '```',
    '',
  ].join('\n');
}

/** Every entry point's report from dist/, by report path. */
export function apiReports() {
  const program = ts.createProgram(ENTRIES.map((e) => join(ROOT, e.types)), {
    noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'],
  });
  return new Map(ENTRIES.map((entry) => [entry.report, report(program, entry)]));
}

/** The reports in api/ that differ from what dist/ gives (missing ones included). */
export function staleReports(reports = apiReports()) {
  const stale = [];
  for (const [path, text] of reports) {
    let current;
    try {
      current = readFileSync(join(ROOT, path), 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== text) stale.push(path);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reports = apiReports();
  if (process.argv.includes('--check')) {
    const stale = staleReports(reports);
    if (stale.length > 0) {
      console.error(`api-report: ${stale.join(', ')} differ from the build; update with: ${UPDATE_COMMAND}`);
      process.exit(1);
    }
  } else {
    for (const [path, text] of reports) {
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), text);
      console.log(`api-report: ${relative(ROOT, join(ROOT, path))}`);
    }
  }
}
