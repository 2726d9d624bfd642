/**
 * Renders deploy/helm/ferry with Helm and validates every object against the Kubernetes schemas:
 *
 *   npm run check:chart            (every values file under deploy/helm/ferry/ci; .ci/run runs it)
 *
 * - Helm: the official binary (scripts/use-helm.sh), `helm lint --strict` and `helm template`.
 * - Schemas: kubernetes-models, generated from Kubernetes' OpenAPI document. Each object is
 *   checked twice: by the package's JSON-schema validators (types, formats, enums, required
 *   fields), and by TypeScript against the package's declarations of the same schemas, which
 *   rejects a field the API does not have (a misspelt `seccompProfle` would otherwise pass: the
 *   OpenAPI schemas allow unknown fields, and an API server with strict field validation refuses
 *   them at install).
 * test/deployment/helm-chart.test.ts uses the same functions.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHART = path.join(ROOT, 'deploy/helm/ferry');
export const CI_VALUES = path.join(CHART, 'ci');

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The pinned Helm's path (installed on first use). */
export function helmBinary(): string {
  return execFileSync('bash', [path.join(ROOT, 'scripts/use-helm.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export type Rendered = { ok: true; objects: KubernetesObject[] } | { ok: false; error: string };

/** `helm template` of the chart with these values files and `--set` pairs. */
export function renderChart(helm: string, valuesFiles: string[], set: string[] = []): Rendered {
  const args = ['template', 'ferry', CHART, '--namespace', 'ferry'];
  for (const file of valuesFiles) args.push('--values', file);
  for (const pair of set) args.push('--set', pair);
  const result = spawnSync(helm, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) return { ok: false, error: result.stderr.trim() || `helm exited ${result.status}` };
  const objects = parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as KubernetesObject | null)
    .filter((object): object is KubernetesObject => object !== null);
  return { ok: true, objects };
}

/** `helm lint --strict` with these values files: its complaints, none when clean. */
export function lintChart(helm: string, valuesFiles: string[]): string[] {
  const args = ['lint', CHART, '--strict', ...valuesFiles.flatMap((file) => ['--values', file])];
  const result = spawnSync(helm, args, { encoding: 'utf8' });
  if (result.status === 0) return [];
  return [`helm lint --strict: ${(result.stdout + result.stderr).trim()}`];
}

const label = (object: KubernetesObject) => `${object.kind} ${object.metadata?.name ?? '(no name)'}`;

/** kubernetes-models' module path of an apiVersion: `v1` (core) or `<group>/<version>`. */
const modelModule = (apiVersion: string) => `kubernetes-models/${apiVersion}`;

/** Problems found by kubernetes-models' schema validators; an object of a kind it lacks is one. */
export async function validateWithSchemas(objects: KubernetesObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const object of objects) {
    let Model: (new (data: unknown) => { validate(): void }) | undefined;
    try {
      const module = (await import(modelModule(object.apiVersion))) as Record<string, unknown>;
      Model = module[object.kind] as typeof Model;
    } catch {
      Model = undefined;
    }
    if (!Model) {
      problems.push(`${label(object)}: no Kubernetes schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${label(object)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

/**
 * Problems TypeScript finds with the objects typed as kubernetes-models' declarations of their
 * kinds: fields the API does not have, and wrong types.
 */
export function validateFields(objects: KubernetesObject[]): string[] {
  const file = path.join(CHART, '.rendered-objects.ts');
  const lines: string[] = [];
  // The first source line of each object, to name the object a diagnostic is about.
  const owners: Array<{ line: number; object: KubernetesObject }> = [];
  objects.forEach((object, index) => {
    lines.push(`import type { I${object.kind} as T${index} } from '${modelModule(object.apiVersion)}/${object.kind}';`);
  });
  objects.forEach((object, index) => {
    owners.push({ line: lines.length, object });
    lines.push(...`export const o${index}: T${index} = ${JSON.stringify(object, null, 2)};`.split('\n'));
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file || diagnostic.file === undefined)
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return message;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const owner = owners.filter((each) => each.line <= line).at(-1);
      const field = lines[line]?.trim();
      return `${owner ? label(owner.object) : '(imports)'}: ${message}${field ? ` (at ${field})` : ''}`;
    });
}

/** Every problem with the objects: schema validators first, then unknown fields. */
export async function validateObjects(objects: KubernetesObject[]): Promise<string[]> {
  return [...(await validateWithSchemas(objects)), ...validateFields(objects)];
}

/** The values files the chart is checked with: deploy/helm/ferry/ci/*.yaml. */
export const ciValuesFiles = (): string[] =>
  fs
    .readdirSync(CI_VALUES)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => path.join(CI_VALUES, name));

async function main(): Promise<number> {
  const helm = helmBinary();
  let failed = false;
  for (const file of ciValuesFiles()) {
    const name = path.relative(CHART, file);
    const rendered = renderChart(helm, [file]);
    const problems = rendered.ok
      ? [...lintChart(helm, [file]), ...(await validateObjects(rendered.objects))]
      : [`helm template: ${rendered.error}`];
    if (problems.length > 0) {
      failed = true;
      process.stderr.write(`check-chart: ${name}:\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    } else if (rendered.ok) {
      const kinds = rendered.objects.map((object) => object.kind).join(', ');
      process.stdout.write(`check-chart: ${name}: ${rendered.objects.length} objects valid (${kinds})\n`);
    }
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
