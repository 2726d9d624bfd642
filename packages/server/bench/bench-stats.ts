/** Small helpers shared by the benchmark scripts: percentiles over nanosecond samples and a table printer. */
export const percentile = (sortedMs: number[], p: number): number =>
  sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))] ?? Number.NaN;

export async function timeEach(
  count: number,
  run: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p99: number; opsPerSec: number }> {
  const samples: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), opsPerSec: (count / totalMs) * 1000 };
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const headers = Object.keys(rows[0] ?? {});
  const cell = (v: string | number) => (typeof v === 'number' ? v.toFixed(3) : v);
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(cell(r[h] ?? '')).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(headers.map((h) => String(cell(row[h] ?? '')))));
}
