import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../scripts/local-registry.js';

/**
 * Every variable named in the first column of docs/configuration.md's tables: what the deployment
 * files may set for Ferry (the server ignores an unknown variable, so a typo would pass silently).
 */
export const documented: ReadonlySet<string> = (() => {
  const names = new Set<string>();
  for (const line of fs.readFileSync(path.join(REPO_ROOT, 'docs/configuration.md'), 'utf8').split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
})();

/** The names among these that docs/configuration.md does not document. */
export const undocumented = (names: Iterable<string>): string[] => [...names].filter((name) => !documented.has(name));
