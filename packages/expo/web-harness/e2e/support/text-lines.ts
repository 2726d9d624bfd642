import type { Page } from '@playwright/test';

/** A text on screen as the browser laid it out: its words, its CSS word-break, and its lines. */
export interface LaidOutText {
  text: string;
  wordBreak: string;
  lines: string[];
}

/**
 * Every element on the page that holds text, with its text split into the lines the browser drew:
 * a new line starts at the first character drawn lower than the one before it (each character's box
 * from a DOM Range). Only what the layout is, never how long it took.
 */
export function textsOnScreen(page: Page): Promise<LaidOutText[]> {
  return page.evaluate(() => {
    const holders = new Set<HTMLElement>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && node.textContent?.trim() && !parent.closest('script, style')) holders.add(parent);
    }
    const laidOut: LaidOutText[] = [];
    for (const element of holders) {
      if (element.getClientRects().length === 0) continue; // not drawn
      const lines: string[] = [];
      let line = '';
      let lineTop: number | null = null;
      for (const node of element.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        const data = node.textContent ?? '';
        for (let index = 0; index < data.length; index += 1) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const box = range.getClientRects()[0];
          if (box && box.width > 0) {
            if (lineTop !== null && box.top >= lineTop + box.height / 2) {
              lines.push(line);
              line = '';
            }
            if (lineTop === null || box.top >= lineTop + box.height / 2) lineTop = box.top;
          }
          line += data[index];
        }
      }
      lines.push(line);
      laidOut.push({ text: element.textContent ?? '', wordBreak: getComputedStyle(element).wordBreak, lines });
    }
    return laidOut;
  });
}

const HANGUL = /[\uAC00-\uD7A3]/;

/** Where a line ends inside a Korean word: two Hangul syllables on either side of a line break. */
export function breaksInsideKoreanWords(text: LaidOutText): string[] {
  const inside: string[] = [];
  text.lines.forEach((line, index) => {
    const next = text.lines[index + 1];
    if (next !== undefined && HANGUL.test(line.at(-1) ?? '') && HANGUL.test(next.at(0) ?? '')) {
      inside.push(`${line}/${next}`);
    }
  });
  return inside;
}
