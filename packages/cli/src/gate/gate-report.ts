import type { PlatformVerdict } from './gate-verdict.js';
import { annotate, appendSummary, markdownTable } from './github-actions.js';
import type { GateResult } from './run-gate.js';

const VERDICT_LABEL: Record<PlatformVerdict['level'], (verdict: PlatformVerdict) => string> = {
  none: (verdict) => (verdict.outcome === 'block' ? 'block' : 'pass'),
  notice: () => 'pass',
  warning: () => 'pass (warning: no decision)',
  error: () => 'block',
};

const label = (verdict: PlatformVerdict) => VERDICT_LABEL[verdict.level](verdict);

/** The step summary: one row per platform with runtimeVersion, head fingerprint, baseline and verdict. */
export function gateSummary(result: GateResult): string {
  const rows = result.verdicts.map((verdict) => [
    verdict.platform,
    verdict.runtimeVersion ?? '—',
    verdict.fingerprint ?? '—',
    verdict.baseline === undefined ? '—' : (verdict.baseline ?? 'none stored'),
    `${label(verdict)} (${verdict.rule})`,
  ]);
  const heading = result.blocked ? '### Ferry gate: blocked' : '### Ferry gate: passed';
  const affected = `Native-affected: **${result.nativeAffected.affected ? 'affected' : 'not-affected'}**. ${result.nativeAffected.reasons[0] ?? ''}`;
  const table = markdownTable(['Platform', 'runtimeVersion', 'Head fingerprint', 'Baseline', 'Verdict'], rows);
  const notes = result.verdicts.filter((verdict) => verdict.level !== 'none').map((verdict) => `- ${verdict.message}`);
  return [heading, '', affected, '', table, '', ...notes, ''].join('\n');
}

/** Prints the verdicts (annotations for anything worth a look) and writes the step summary. */
export async function reportGate(result: GateResult, write: (line: string) => void): Promise<void> {
  write(`native-affected: ${result.nativeAffected.affected ? 'affected' : 'not-affected'}`);
  for (const reason of result.nativeAffected.reasons) write(`  ${reason}`);
  for (const verdict of result.verdicts) {
    write(`${verdict.platform}: ${label(verdict)} — ${verdict.message}`);
    const title = `Ferry gate (${verdict.platform})`;
    if (verdict.level === 'error') annotate.error(verdict.message, title);
    else if (verdict.level === 'warning') annotate.warning(verdict.message, title);
    else if (verdict.level === 'notice') annotate.notice(verdict.message, title);
  }
  write(result.blocked ? 'gate: blocked' : 'gate: passed');
  await appendSummary(gateSummary(result));
}
