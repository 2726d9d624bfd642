import os from 'node:os';

/** A usage mistake of a `ferry-server` command: printed with its usage, exit code 2. */
export class UsageError extends Error {}

/** Who ran a `ferry-server` command, for created_by and the audit log. */
export const localActor = (): string => {
  try {
    return `ferry-server:${os.userInfo().username}`;
  } catch {
    return 'ferry-server';
  }
};

/** Rows (the first is the header) as columns padded to their widest cell, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
