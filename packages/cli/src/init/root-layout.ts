import { tsPlugin } from '@sveltejs/acorn-typescript';
import { type Node, Parser } from 'acorn';

/** Where Expo Router apps keep the root layout: SDK 54's template, and SDK 55's and later (src/app). */
export const ROOT_LAYOUT_CANDIDATES = [
  'app/_layout.tsx',
  'app/_layout.jsx',
  'app/_layout.js',
  'src/app/_layout.tsx',
  'src/app/_layout.jsx',
  'src/app/_layout.js',
] as const;

export type LayoutEdit = { ok: true; text: string; changed: boolean } | { ok: false; reason: string };

type AnyNode = Node & Record<string, unknown> & { start: number; end: number };

const TSX = Parser.extend(tsPlugin({ jsx: true }));

const parse = (source: string): AnyNode | undefined => {
  try {
    return TSX.parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true }) as unknown as AnyNode;
  } catch {
    return undefined;
  }
};

const lineStart = (source: string, at: number) => source.lastIndexOf('\n', at - 1) + 1;
const indentAt = (source: string, at: number) => /^[ \t]*/.exec(source.slice(lineStart(source, at)))?.[0] ?? '';
const isJsx = (node: AnyNode | undefined) => node?.type === 'JSXElement' || node?.type === 'JSXFragment';

/** The default-exported component: `export default function X() {…}`, or a function declared and exported by name. */
function defaultComponent(program: AnyNode): AnyNode | undefined {
  const body = program.body as AnyNode[];
  const exported = body.find((node) => node.type === 'ExportDefaultDeclaration')?.declaration as AnyNode | undefined;
  if (!exported) return undefined;
  if (['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'].includes(exported.type)) return exported;
  if (exported.type === 'Identifier') {
    const name = exported.name;
    for (const node of body) {
      if (node.type === 'FunctionDeclaration' && (node.id as AnyNode | null)?.name === name) return node;
      if (node.type === 'VariableDeclaration') {
        for (const declarator of node.declarations as AnyNode[]) {
          const init = declarator.init as AnyNode | null;
          if ((declarator.id as AnyNode).name === name && init && /Function/.test(init.type)) return init;
        }
      }
    }
  }
  return undefined;
}

/** Whether the module already imports `name` (as a local binding). */
const importsName = (program: AnyNode, name: string) =>
  (program.body as AnyNode[]).some(
    (node) =>
      node.type === 'ImportDeclaration' &&
      (node.specifiers as AnyNode[]).some((specifier) => (specifier.local as AnyNode).name === name),
  );

/**
 * Adds the update-policy hook and banner of @ferry/expo (docs/app-sdk.md) to an Expo Router root
 * layout: the import, `const otaUpdate = useOtaUpdatePolicy()` at the top of the default-exported
 * component, and `<OtaUpdateBanner update={otaUpdate} … />` as the last child of the JSX it returns
 * (a single self-closing element is wrapped in a fragment). With `insets`, the banner clears the
 * status bar through react-native-safe-area-context (Expo Router provides its SafeAreaProvider).
 * A layout that already uses the hook is left as it is; one whose shape is not recognised is
 * refused with the reason, and nothing is changed.
 */
export function withUpdateBanner(source: string, options: { insets: boolean }): LayoutEdit {
  const program = parse(source);
  if (!program) return { ok: false, reason: 'it does not parse as TypeScript/JSX' };
  if (importsName(program, 'useOtaUpdatePolicy')) return { ok: true, text: source, changed: false };
  const component = defaultComponent(program);
  if (!component) return { ok: false, reason: 'it has no default-exported component function' };
  const block = component.body as AnyNode;
  if (block.type !== 'BlockStatement') return { ok: false, reason: 'its component has no function body' };
  const statements = block.body as AnyNode[];
  const returned = [...statements].reverse().find((node) => node.type === 'ReturnStatement') as AnyNode | undefined;
  const jsx = returned?.argument as AnyNode | undefined;
  if (!returned || !isJsx(jsx)) return { ok: false, reason: 'its component does not end by returning JSX' };

  const useInsets = options.insets;
  const reuseInsetsImport = importsName(program, 'useSafeAreaInsets');
  const banner = `<OtaUpdateBanner update={otaUpdate}${useInsets ? ' topInset={otaInsets.top}' : ''} />`;
  const edits: Array<{ at: number; end?: number; text: string }> = [];

  // The banner, last child of the returned element (drawn above the rest).
  const closing = (jsx!.closingElement ?? jsx!.closingFragment) as AnyNode | null | undefined;
  if (closing) {
    const indent = indentAt(source, closing.start);
    const atLineStart = source.slice(lineStart(source, closing.start), closing.start).trim() === '';
    edits.push(
      atLineStart
        ? { at: lineStart(source, closing.start), text: `${indent}  ${banner}\n` }
        : { at: closing.start, text: banner },
    );
  } else {
    const indent = indentAt(source, jsx!.start);
    const original = source.slice(jsx!.start, jsx!.end);
    edits.push({
      at: jsx!.start,
      end: jsx!.end,
      text: `(\n${indent}  <>\n${indent}    ${original}\n${indent}    ${banner}\n${indent}  </>\n${indent})`,
    });
  }

  // The hooks, first in the component (hooks run unconditionally, in the same order).
  const first = statements[0] ?? returned!;
  const bodyIndent = indentAt(source, first.start);
  const hooks = [
    `${bodyIndent}const otaUpdate = useOtaUpdatePolicy();\n`,
    ...(useInsets ? [`${bodyIndent}const otaInsets = useSafeAreaInsets();\n`] : []),
  ].join('');
  edits.push({ at: lineStart(source, first.start), text: hooks });

  // The imports, after the last one.
  const imports = (program.body as AnyNode[]).filter((node) => node.type === 'ImportDeclaration');
  const lines = [
    "import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';",
    ...(useInsets && !reuseInsetsImport ? ["import { useSafeAreaInsets } from 'react-native-safe-area-context';"] : []),
  ];
  const lastImport = imports.at(-1);
  edits.push(
    lastImport ? { at: lastImport.end, text: `\n${lines.join('\n')}` } : { at: 0, text: `${lines.join('\n')}\n\n` },
  );

  let text = source;
  for (const edit of edits.sort((a, b) => b.at - a.at)) {
    text = text.slice(0, edit.at) + edit.text + text.slice(edit.end ?? edit.at);
  }
  return { ok: true, text, changed: true };
}
