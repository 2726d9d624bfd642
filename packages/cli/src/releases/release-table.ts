import type { ReleaseListItem } from '@ferry/contracts';

const short = (value: string | null | undefined, length: number) => (value ? value.slice(0, length) : '-');

/** Columns padded to their widest cell; plain text so it reads the same in a terminal and a CI log. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** `ferry releases`: newest first; the first row is the active release. */
export function releaseTable(releases: ReleaseListItem[]): string {
  const header = ['', 'RELEASE', 'CREATED', 'POLICY', 'FINGERPRINT', 'COMMIT', 'BRANCH', 'ACTOR', 'NOTE'];
  const rows = releases.map((release, index) => [
    index === 0 ? '*' : '',
    release.id,
    release.createdAt,
    release.updatePolicy === null ? '-' : String(release.updatePolicy),
    short(release.fingerprint, 12),
    short(release.metadata.commit, 8),
    release.metadata.branch ?? '-',
    release.metadata.actor ?? '-',
    release.metadata.rolledBackFrom ? `rollback of ${release.metadata.rolledBackFrom}` : '',
  ]);
  return formatTable(header, rows);
}
