import fs from 'node:fs/promises';
import * as core from '@actions/core';

/**
 * The GitHub Actions side of the pipeline commands: annotations (which read as plain lines
 * outside Actions too), step outputs and the step summary, each written only where Actions
 * provides the file.
 */
export const annotate = {
  error: (message: string, title?: string) => core.error(message, title ? { title } : {}),
  warning: (message: string, title?: string) => core.warning(message, title ? { title } : {}),
  notice: (message: string, title?: string) => core.notice(message, title ? { title } : {}),
};

/** Sets step outputs when the step has a $GITHUB_OUTPUT file; outside Actions it does nothing. */
export function setOutputs(outputs: Record<string, string>): void {
  if (!process.env.GITHUB_OUTPUT) return;
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}

/**
 * Appends Markdown to $GITHUB_STEP_SUMMARY when set. (core.summary caches the file path of its
 * first use, which is wrong for a process that runs several steps' worth of commands.)
 */
export async function appendSummary(markdown: string): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  await fs.appendFile(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

/** A Markdown table; cells are escaped so a value can never break the table. */
export function markdownTable(header: string[], rows: string[][]): string {
  const cell = (value: string) => value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
