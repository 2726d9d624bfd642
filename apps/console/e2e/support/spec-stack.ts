import { expect, test } from '@playwright/test';
import { inEnglish } from './console-page.js';
import { postgresProblem, type Stack, startStack } from './stack.js';

/**
 * One stack for a spec file, whose tests then run in order and build on each other's state:
 * started before them (and every test skipped with the reason when PostgreSQL is missing), closed
 * after. Each test starts in English, and fails on anything the console's Content Security Policy
 * (no 'unsafe-inline') refused.
 */
export function stackForFile(name: string, started: (stack: Stack) => void): void {
  test.describe.configure({ mode: 'serial' });
  let stack: Stack | undefined;
  let skipReason: string | undefined;
  let cspViolations: string[] = [];
  test.beforeAll(async () => {
    skipReason = await postgresProblem();
    if (skipReason) return;
    stack = await startStack(name);
    started(stack);
  });
  test.afterAll(async () => {
    await stack?.close();
  });
  test.beforeEach(async ({ page, context }) => {
    test.skip(skipReason !== undefined, skipReason);
    await inEnglish(context);
    cspViolations = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  test.afterEach(() => {
    expect(cspViolations).toEqual([]);
  });
}
