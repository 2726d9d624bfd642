import { type Node, parse } from 'acorn';

/** The release control values (spec, "Release control values"), as written in the file. */
export const RELEASE_CONTROL_NAMES = [
  'APP_VERSION',
  'ANDROID_VERSION_CODE',
  'IOS_BUILD_NUMBER',
  'IS_PRERELEASE',
] as const;
export type ReleaseControlName = (typeof RELEASE_CONTROL_NAMES)[number];

export type LiteralValue = string | number | boolean;

export interface ReleaseControlValues {
  APP_VERSION: string;
  ANDROID_VERSION_CODE: string | number;
  IOS_BUILD_NUMBER: string | number;
  IS_PRERELEASE: boolean;
}

/** A literal in the source: where it is and what it says. */
interface LiteralSite {
  start: number;
  end: number;
  raw: string;
  value: LiteralValue;
}

export class ReleaseControlError extends Error {
  override name = 'ReleaseControlError';
}

type AnyNode = Node & Record<string, unknown>;

function parseSource(source: string, file: string): Node {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true });
    } catch {
      // try the other source type
    }
  }
  throw new ReleaseControlError(`${file} is not valid JavaScript`);
}

function keyName(node: AnyNode): string | undefined {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

function literalSite(node: AnyNode | undefined | null): LiteralSite | undefined {
  if (node?.type !== 'Literal') return undefined;
  const value = node.value;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  return { start: node.start, end: node.end, raw: node.raw as string, value };
}

/** `exports.NAME = …` or `module.exports.NAME = …`. */
function exportedName(target: AnyNode): string | undefined {
  if (target.type !== 'MemberExpression' || target.computed) return undefined;
  const object = target.object as AnyNode;
  const isExports =
    (object.type === 'Identifier' && object.name === 'exports') ||
    (object.type === 'MemberExpression' &&
      (object.object as AnyNode).type === 'Identifier' &&
      ((object.object as AnyNode).name as string) === 'module' &&
      ((object.property as AnyNode).name as string) === 'exports');
  return isExports ? keyName(target.property as AnyNode) : undefined;
}

/** Every place a release control name is given a literal: `const N = …`, `{ N: … }`, `exports.N = …`. */
function findSites(ast: Node): Map<string, LiteralSite[]> {
  const sites = new Map<string, LiteralSite[]>();
  const record = (name: string | undefined, site: LiteralSite | undefined) => {
    if (!name || !site || !(RELEASE_CONTROL_NAMES as readonly string[]).includes(name)) return;
    sites.set(name, [...(sites.get(name) ?? []), site]);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object' || typeof (node as { type?: unknown }).type !== 'string') return;
    const current = node as AnyNode;
    if (current.type === 'VariableDeclarator')
      record(keyName(current.id as AnyNode), literalSite(current.init as AnyNode));
    if (current.type === 'Property' && !current.computed && !current.shorthand) {
      record(keyName(current.key as AnyNode), literalSite(current.value as AnyNode));
    }
    if (current.type === 'AssignmentExpression' && current.operator === '=') {
      record(exportedName(current.left as AnyNode), literalSite(current.right as AnyNode));
    }
    for (const [key, value] of Object.entries(current))
      if (key !== 'type' && value && typeof value === 'object') visit(value);
  };
  visit(ast);
  return sites;
}

/**
 * The release control file as text that can be read and edited in place: only the literal of a
 * changed value is replaced, so comments, quotes, order and layout stay as the person wrote them.
 */
export class ReleaseControlFile {
  private constructor(
    readonly file: string,
    private source: string,
  ) {}

  static parse(file: string, source: string): ReleaseControlFile {
    const parsed = new ReleaseControlFile(file, source);
    parsed.values(); // fail early on a file without the values
    return parsed;
  }

  get text(): string {
    return this.source;
  }

  private site(name: ReleaseControlName): LiteralSite {
    const found = findSites(parseSource(this.source, this.file)).get(name) ?? [];
    if (found.length === 0) {
      throw new ReleaseControlError(`${this.file} does not give ${name} a literal value (e.g. const ${name} = …;)`);
    }
    const distinct = new Set(found.map((site) => site.raw));
    if (distinct.size > 1) {
      throw new ReleaseControlError(`${this.file} gives ${name} more than one value; keep one definition`);
    }
    // Several identical definitions (`const X = 1` and `{ X: 1 }`) are edited together below.
    return found[0] as LiteralSite;
  }

  values(): ReleaseControlValues {
    const value = (name: ReleaseControlName) => this.site(name).value;
    const appVersion = value('APP_VERSION');
    const android = value('ANDROID_VERSION_CODE');
    const ios = value('IOS_BUILD_NUMBER');
    const prerelease = value('IS_PRERELEASE');
    if (typeof appVersion !== 'string') throw new ReleaseControlError(`${this.file}: APP_VERSION must be a string`);
    if (typeof android === 'boolean')
      throw new ReleaseControlError(`${this.file}: ANDROID_VERSION_CODE must be a number`);
    if (typeof ios === 'boolean')
      throw new ReleaseControlError(`${this.file}: IOS_BUILD_NUMBER must be a number or string`);
    if (typeof prerelease !== 'boolean')
      throw new ReleaseControlError(`${this.file}: IS_PRERELEASE must be true or false`);
    return { APP_VERSION: appVersion, ANDROID_VERSION_CODE: android, IOS_BUILD_NUMBER: ios, IS_PRERELEASE: prerelease };
  }

  /** Replaces a value's literal(s), keeping the literal's kind and quote style. */
  set(name: ReleaseControlName, value: string | number): void {
    const sites = findSites(parseSource(this.source, this.file)).get(name) ?? [];
    this.site(name); // the same checks as reading
    const edits = [...sites].sort((a, b) => b.start - a.start);
    for (const site of edits) {
      const raw = renderLike(site, value, name, this.file);
      this.source = this.source.slice(0, site.start) + raw + this.source.slice(site.end);
    }
  }
}

/** The new literal in the old literal's style: a string stays a string with the same quote, a number a number. */
function renderLike(site: LiteralSite, value: string | number, name: string, file: string): string {
  const text = String(value);
  if (typeof site.value === 'string') {
    if (!/^[0-9A-Za-z.+_-]+$/.test(text))
      throw new ReleaseControlError(`${file}: refusing to write ${name}=${JSON.stringify(text)}`);
    const quote = site.raw[0] === '"' ? '"' : "'";
    return `${quote}${text}${quote}`;
  }
  if (!/^[0-9]+$/.test(text)) {
    throw new ReleaseControlError(`${file}: ${name} is a number in the file and cannot become ${JSON.stringify(text)}`);
  }
  return text;
}
