// `prepack`: the package carries the CI workflow templates `ferry init` writes into an app. Their one
// source is examples/expo-app/.github/workflows (validated by test/workflow-templates.test.ts); this
// copies them into workflow-templates/ so the published CLI has them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const source = path.resolve(pkg, '../../examples/expo-app/.github/workflows');
const target = path.join(pkg, 'workflow-templates');
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target);
for (const name of fs.readdirSync(source).filter((file) => file.endsWith('.yml'))) {
  fs.copyFileSync(path.join(source, name), path.join(target, name));
}
