import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'acorn';

/** A bare specifier (`react-native`, `@ferry/contracts/update-policy`) and the package it names. */
export interface BareImport {
  specifier: string;
  packageName: string;
  /** The module that imports it, relative to the package folder. */
  from: string;
}

const packageNameOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

interface Node {
  type: string;
  source?: { type: string; value?: unknown } | null;
  [key: string]: unknown;
}

/** Every module specifier a module names: static imports, re-exports, and `import('…')` with a literal. */
function specifiersOf(code: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const current = node as Node;
    if (
      ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].includes(
        current.type,
      ) &&
      current.source?.type === 'Literal' &&
      typeof current.source.value === 'string'
    ) {
      found.push(current.source.value);
    }
    for (const [key, value] of Object.entries(current)) if (key !== 'source') visit(value);
  };
  visit(parse(code, { ecmaVersion: 'latest', sourceType: 'module' }));
  return found;
}

/**
 * The packages an entry module reaches, statically: relative imports are followed inside the
 * package, bare ones are collected (not followed). What an app's bundler pulls in when it imports
 * the entry, checked without React Native.
 */
export function bareImportsOf(packageDir: string, entry: string): BareImport[] {
  const bare: BareImport[] = [];
  const seen = new Set<string>();
  const queue = [path.resolve(packageDir, entry)];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(fs.readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        queue.push(path.resolve(path.dirname(file), specifier));
      } else if (!specifier.startsWith('node:')) {
        bare.push({ specifier, packageName: packageNameOf(specifier), from: path.relative(packageDir, file) });
      }
    }
  }
  return bare;
}
