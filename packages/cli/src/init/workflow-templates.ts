import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../cli-error.js';

/**
 * Where the CI workflow templates are: in an installed @ferry/cli, `workflow-templates/` (copied at
 * pack time from examples/expo-app/.github/workflows, their one source); in a Ferry checkout, that
 * source itself.
 */
export function workflowTemplatesDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, '../../workflow-templates'),
    path.resolve(here, '../../../../examples/expo-app/.github/workflows'),
  ];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'publish.yml')));
  if (!found)
    throw new CliError(
      `The CI workflow templates are missing from this @ferry/cli (looked in ${candidates.join(', ')}).`,
    );
  return found;
}

/** The templates by file name (publish.yml, gate.yml, native-bump.yml, store-deploy.yml). */
export function readWorkflowTemplates(dir: string = workflowTemplatesDir()): Map<string, string> {
  return new Map(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.yml'))
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')] as const),
  );
}
