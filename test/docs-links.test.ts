import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The pages a newcomer reads: the README and every page under docs/, history included. */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
  return ['README.md', ...docs.sort()];
}

/** The text outside fenced code blocks, line by line (code is not rendered as Markdown). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** The anchors GitHub gives a page's headings (github-slugger, as GitHub renders them). */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    // The rendered text: a link's label, code without its backticks.
    anchors.add(slugger.slug(heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return anchors;
}

/** Relative links of a page, with the line they are on (inline code is not a link). */
function linksOf(text: string): Array<{ target: string; line: number }> {
  return prose(text).flatMap((line, index) =>
    [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ target, line: index + 1 })),
  );
}

describe('links between the README and the docs', () => {
  const anchors = new Map<string, Set<string>>();
  const anchorsOfFile = (file: string) => {
    let found = anchors.get(file);
    if (!found) {
      found = anchorsOf(fs.readFileSync(file, 'utf8'));
      anchors.set(file, found);
    }
    return found;
  };

  it.each(pages())('%s links only to pages and headings that exist', (page) => {
    const file = path.join(ROOT, page);
    const broken = linksOf(fs.readFileSync(file, 'utf8')).flatMap(({ target, line }) => {
      const [pathPart = '', anchor] = target.split('#');
      const linked = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
      if (!fs.existsSync(linked)) return [`${page}:${line}: ${target} (no such file)`];
      if (anchor === undefined || !linked.endsWith('.md')) return [];
      return anchorsOfFile(linked).has(anchor) ? [] : [`${page}:${line}: ${target} (no such heading)`];
    });
    expect(broken).toEqual([]);
  });

  it('reads headings and links as GitHub renders them', () => {
    expect(anchorsOf('# A\n## `npm run bench:manifest`\n```\n# not a heading\n```\n## A')).toEqual(
      new Set(['a', 'npm-run-benchmanifest', 'a-1']),
    );
    expect(linksOf('[x](a.md#b) `[y](c.md)` [z](https://e.org) [w](#here)')).toEqual([
      { target: 'a.md#b', line: 1 },
      { target: '#here', line: 1 },
    ]);
  });
});
