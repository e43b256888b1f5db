// Plain-text tables for the benchmark report.

export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '-';
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)}k/s`;
  return `${perSecond.toFixed(0)}/s`;
}

export function formatTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '-';
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : `${ratio.toFixed(2)}x`;
}

/** Prints a Markdown table (readable in a terminal, pasteable into the README). */
export function printTable(title: string, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}
