import { tsPlugin } from '@sveltejs/acorn-typescript';
import { type Node, Parser } from 'acorn';

/**
 * What a module of the app config's reach mentions: every string that may name a file (imports,
 * requires, plugin paths, asset paths, paths built with path.join), the static prefixes of
 * computed paths, and the constructs whose target cannot be known without running the code.
 */
export interface ModuleReferences {
  /** Whole strings: './plugins/withFoo', './assets/icon.png', 'release.js'. */
  paths: string[];
  /** Static beginnings of computed paths ('./assets/icon-' from `./assets/icon-${env}.png`). */
  prefixes: string[];
  /** Why some reference could not be followed (a require of a variable, `${root}/x.js`). */
  opaque: string[];
}

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const JAVASCRIPT = /\.(?:[cm]?js|jsx)$/;

/** True for the files whose references the graph follows. */
export function isFollowable(file: string): boolean {
  return TYPESCRIPT.test(file) || JAVASCRIPT.test(file) || file.endsWith('.json');
}

/** Extracts the references of one module; `file` only chooses the parser. */
export async function moduleReferences(file: string, source: string): Promise<ModuleReferences> {
  const found: ModuleReferences = { paths: [], prefixes: [], opaque: [] };
  if (file.endsWith('.json')) {
    try {
      collectJsonStrings(JSON.parse(source), found.paths);
    } catch {
      found.opaque.push(`${file} is not valid JSON`);
    }
    return found;
  }
  // TypeScript and JSX are parsed as they are: no compiler runs on the app's code. Type-only
  // syntax is skipped while visiting (visit), as a compiler would have erased it.
  const ast = parseModule(source, TYPESCRIPT.test(file) || file.endsWith('.jsx') ? syntaxOf(file) : 'js');
  if (!ast) {
    found.opaque.push(`${file} could not be parsed`);
    return found;
  }
  visit(ast, (node) => inspectNode(node, file, found));
  return found;
}

type Syntax = 'js' | 'ts' | 'tsx';

const syntaxOf = (file: string): Syntax => (file.endsWith('x') ? 'tsx' : 'ts');

const PARSERS: Record<Syntax, typeof Parser> = {
  js: Parser,
  ts: Parser.extend(tsPlugin()),
  tsx: Parser.extend(tsPlugin({ jsx: true })),
};

function parseModule(code: string, syntax: Syntax): Node | undefined {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return PARSERS[syntax].parse(code, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
        allowImportExportEverywhere: true,
        locations: true,
      });
    } catch {
      // try the other source type
    }
  }
  return undefined;
}

function collectJsonStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectJsonStrings(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collectJsonStrings(item, into);
    }
  }
}

type AnyNode = Node & Record<string, unknown>;

/** TypeScript nodes that wrap a runtime expression: only that expression is visited. */
const TS_EXPRESSION_WRAPPERS = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
  'TSExportAssignment',
]);
/** TypeScript nodes that exist at run time (enums, namespaces with values, `import x = require()`). */
const TS_RUNTIME = new Set([
  'TSEnumDeclaration',
  'TSEnumMember',
  'TSModuleDeclaration',
  'TSModuleBlock',
  'TSImportEqualsDeclaration',
  'TSExternalModuleReference',
]);
/** Keys that hold only types, on any node. */
const TYPE_KEYS = new Set([
  'typeAnnotation',
  'typeParameters',
  'typeArguments',
  'returnType',
  'superTypeArguments',
  'implements',
]);

/** True for a node a TypeScript compiler erases (types, `import type`, `export type`, `declare`). */
function isTypeOnly(node: AnyNode): boolean {
  if (node.importKind === 'type' || node.exportKind === 'type' || node.declare === true) return true;
  return node.type.startsWith('TS') && !TS_RUNTIME.has(node.type) && !TS_EXPRESSION_WRAPPERS.has(node.type);
}

function visit(node: unknown, onNode: (node: AnyNode) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, onNode);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as { type?: unknown }).type !== 'string') return;
  const current = node as AnyNode;
  if (isTypeOnly(current)) return;
  if (TS_EXPRESSION_WRAPPERS.has(current.type)) {
    visit(current.expression, onNode);
    return;
  }
  onNode(current);
  for (const [key, value] of Object.entries(current)) {
    if (key !== 'type' && !TYPE_KEYS.has(key) && value && typeof value === 'object') visit(value, onNode);
  }
}

/** A string that looks like a file path (a directory separator or a file extension at the end). */
const PATH_LIKE = /\/|\.[A-Za-z0-9]{1,10}$/;

/** Static pieces of a computed string: template quasis or the literal operands of a `+` chain. */
type Piece = { literal: string } | { computed: true };

function inspectNode(node: AnyNode, file: string, found: ModuleReferences): void {
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string') found.paths.push(node.value);
      return;
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
      const expressions = node.expressions as unknown[];
      if (expressions.length === 0) {
        found.paths.push(quasis[0]?.value.cooked ?? '');
        return;
      }
      const pieces: Piece[] = [];
      quasis.forEach((quasi, index) => {
        pieces.push({ literal: quasi.value.cooked ?? '' });
        if (index < expressions.length) pieces.push({ computed: true });
      });
      inspectComputed(pieces, file, 'a template string', found);
      return;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+') return;
      const pieces = flattenConcatenation(node);
      if (pieces.some((piece) => 'literal' in piece) && pieces.some((piece) => 'computed' in piece)) {
        inspectComputed(pieces, file, 'a string concatenation', found);
      }
      return;
    }
    case 'ImportExpression':
      if (!isStaticString(node.source as AnyNode)) found.opaque.push(`${file} imports a computed module path`);
      return;
    case 'CallExpression':
      inspectCall(node, file, found);
      return;
    default:
      return;
  }
}

function isStaticString(node: AnyNode | undefined): boolean {
  if (!node) return false;
  if (node.type === 'Literal') return typeof node.value === 'string';
  return node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0;
}

function flattenConcatenation(node: AnyNode): Piece[] {
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    return [...flattenConcatenation(node.left as AnyNode), ...flattenConcatenation(node.right as AnyNode)];
  }
  if (node.type === 'Literal' && typeof node.value === 'string') return [{ literal: node.value }];
  return [{ computed: true }];
}

/**
 * A computed string: a static path-like beginning names a directory the graph takes whole; any
 * other path-like piece (`${root}/plugin.js`, `${name}.png`) makes the reference unknowable.
 */
function inspectComputed(pieces: Piece[], file: string, what: string, found: ModuleReferences): void {
  const first = pieces[0];
  const prefix = first && 'literal' in first ? first.literal : '';
  if (prefix.includes('/')) {
    found.prefixes.push(prefix);
    return;
  }
  const pathLike = pieces.some((piece) => 'literal' in piece && PATH_LIKE.test(piece.literal));
  if (pathLike) found.opaque.push(`${file} builds a file path from ${what} with a computed start`);
}

const PATH_FUNCTIONS = new Set(['join', 'resolve']);

function calleeName(callee: AnyNode): { object?: string; property?: string; name?: string } {
  if (callee.type === 'Identifier') return { name: callee.name as string };
  if (callee.type === 'MemberExpression' && !callee.computed) {
    const object = callee.object as AnyNode;
    const property = callee.property as AnyNode;
    return {
      object: object.type === 'Identifier' ? (object.name as string) : object.type,
      property: property.name as string,
    };
  }
  return {};
}

function inspectCall(node: AnyNode, file: string, found: ModuleReferences): void {
  const callee = calleeName(node.callee as AnyNode);
  const args = node.arguments as AnyNode[];
  const isRequire = callee.name === 'require' || (callee.object === 'require' && callee.property === 'resolve');
  if (isRequire) {
    if (!isStaticString(args[0])) found.opaque.push(`${file} requires a computed module path`);
    return;
  }
  const isPathCall =
    (callee.property !== undefined && PATH_FUNCTIONS.has(callee.property) && callee.object === 'path') ||
    (callee.name !== undefined && PATH_FUNCTIONS.has(callee.name));
  if (isPathCall) inspectPathCall(args, file, found);
}

/** The base a path.join/resolve starts from: the module's directory or the project root. */
function isBaseDirectory(node: AnyNode): boolean {
  if (node.type === 'Identifier') return node.name === '__dirname';
  if (node.type === 'MemberExpression') {
    const object = node.object as AnyNode;
    const property = node.property as AnyNode;
    return object.type === 'MetaProperty' && property.name === 'dirname';
  }
  if (node.type === 'CallExpression') {
    const callee = calleeName(node.callee as AnyNode);
    return callee.object === 'process' && callee.property === 'cwd';
  }
  return false;
}

/**
 * path.join(__dirname, 'plugins', 'withFoo.js') names './plugins/withFoo.js'; a computed segment
 * keeps the static start as a directory (or makes the call unknowable when nothing static precedes it).
 */
function inspectPathCall(args: AnyNode[], file: string, found: ModuleReferences): void {
  const segments: string[] = [];
  let computed = false;
  for (const [index, arg] of args.entries()) {
    if (index === 0 && isBaseDirectory(arg)) continue;
    if (isStaticString(arg)) {
      const value = arg.type === 'Literal' ? (arg.value as string) : readTemplate(arg);
      segments.push(value);
      continue;
    }
    computed = true;
    break;
  }
  const joined = segments.join('/');
  if (!computed) {
    if (joined !== '') found.paths.push(`./${joined}`);
    return;
  }
  if (joined !== '') found.prefixes.push(`./${joined}/`);
  else found.opaque.push(`${file} joins a file path from computed segments`);
}

function readTemplate(node: AnyNode): string {
  const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
  return quasis[0]?.value.cooked ?? '';
}
