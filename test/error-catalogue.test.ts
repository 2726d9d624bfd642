import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CERTIFICATE_VENDORS, ERROR_CATALOGUE, isKnownErrorCode } from '@ferry/contracts';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { STATUS_BY_KIND } from '../packages/server/src/http/error-handler.js';
import { ERRORS_FILE, errorCatalogueMarkdown } from '../scripts/error-catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_SOURCES = path.join(ROOT, 'packages/server/src');

/** A string literal of the server's sources, where it stands. */
interface Literal {
  text: string;
  at: string;
}

/** A literal kind and code given together, as `new DomainError('conflict', 'GC_IN_PROGRESS', …)` does. */
interface KindAndCode extends Literal {
  kind: string;
}

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** Every string literal of the server's sources (comments are not literals), and every kind-code pair. */
function readSources(): { literals: Literal[]; pairs: KindAndCode[] } {
  const literals: Literal[] = [];
  const pairs: KindAndCode[] = [];
  const kinds = new Set(Object.keys(STATUS_BY_KIND));
  for (const file of sourceFiles(SERVER_SOURCES)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) =>
      `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        literals.push({ text: node.text, at: at(node) });
      }
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const [first, second] = node.arguments ?? [];
        if (
          first &&
          second &&
          ts.isStringLiteral(first) &&
          kinds.has(first.text) &&
          ts.isStringLiteral(second) &&
          /^[A-Z][A-Z0-9_]*$/.test(second.text)
        ) {
          pairs.push({ kind: first.text, text: second.text, at: at(second) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, pairs };
}

/** Written like an error code with at least two words: what a new code would look like. */
const CODE_SHAPED = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

const CONFIGURATION = fs.readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');

/**
 * Why a code-shaped literal of the server is not an error code it answers, or undefined when
 * nothing explains it (then it must be in the catalogue).
 */
function notAnErrorCode(text: string): string | undefined {
  if (CONFIGURATION.includes(`\`${text}\``)) return 'a configuration variable (docs/configuration.md)';
  if (/^(ERR|FST|HPE|SQLITE)_/.test(text) || text === 'EAI_AGAIN' || text === 'MODULE_NOT_FOUND') {
    return "a code of Node, Fastify or a library's errors, read by the server";
  }
  if ((CERTIFICATE_VENDORS as readonly string[]).includes(text)) return 'a certificate vendor';
  if (text === 'WHEN_REQUIRED') return "the AWS SDK's checksum setting";
  return undefined;
}

describe('the error catalogue', () => {
  const { literals, pairs } = readSources();

  it('docs/errors.md is the catalogue as npm run openapi renders it', () => {
    const kept = fs.readFileSync(ERRORS_FILE, 'utf8');
    expect(kept === errorCatalogueMarkdown(), 'docs/errors.md is out of date: run npm run openapi').toBe(true);
  });

  it('holds every code the server answers: a code-shaped literal is catalogued or explained', () => {
    const unexplained = literals
      .filter(({ text }) => CODE_SHAPED.test(text) && !isKnownErrorCode(text) && !notAnErrorCode(text))
      .map(({ text, at }) => `${text} (${at}): add it to packages/contracts/src/error-catalogue.ts`);
    expect(unexplained).toEqual([]);
  });

  it('holds no code the server never answers', () => {
    const used = new Set(literals.map(({ text }) => text));
    expect(Object.keys(ERROR_CATALOGUE).filter((code) => !used.has(code))).toEqual([]);
  });

  it("gives each domain error's code the status its kind is answered with", () => {
    expect(pairs.length).toBeGreaterThan(20);
    const disagreeing = pairs.flatMap(({ kind, text, at }) => {
      if (!isKnownErrorCode(text)) return [`${text} (${at}) is not catalogued`];
      const status = STATUS_BY_KIND[kind as keyof typeof STATUS_BY_KIND];
      const catalogued = ERROR_CATALOGUE[text].status;
      return status === catalogued
        ? []
        : [`${text} (${at}): kind ${kind} answers ${status}, the catalogue says ${catalogued}`];
    });
    expect(disagreeing).toEqual([]);
  });

  it('gives every code a status and a one-line meaning', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(entry.status === '4xx' || (entry.status >= 400 && entry.status <= 599), code).toBe(true);
      expect(entry.meaning, code).toMatch(/^[^\n]+\.$/);
    }
  });
});
