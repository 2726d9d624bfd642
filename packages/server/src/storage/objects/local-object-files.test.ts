import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FOREIGN_PARTIAL_IDLE_MS, LocalObjectFiles } from './local-object-files.js';

const HOST = encodeURIComponent(os.hostname());

describe('the partial sweep', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  /** A store whose tmp/ holds the named partials, each last written `ageMs` ago. */
  const storeWith = (partials: Record<string, number>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-partials-'));
    roots.push(root);
    const files = new LocalObjectFiles(root);
    fs.mkdirSync(files.tmpRoot, { recursive: true });
    const now = Date.now();
    for (const [name, ageMs] of Object.entries(partials)) {
      const file = path.join(files.tmpRoot, name);
      fs.writeFileSync(file, 'partial');
      const at = new Date(now - ageMs);
      fs.utimesSync(file, at, at);
    }
    return { files, now, left: () => fs.readdirSync(files.tmpRoot).sort() };
  };

  const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
  const idle = FOREIGN_PARTIAL_IDLE_MS;
  const table: Array<[string, string, number, { startingUp: boolean }, boolean]> = [
    ['this process, at start-up', `${HOST}~${process.pid}~a.part`, 0, { startingUp: true }, true],
    [
      'this process, while it runs (an upload in progress)',
      `${HOST}~${process.pid}~a.part`,
      idle * 2,
      { startingUp: false },
      false,
    ],
    ['an ended process of this host', `${HOST}~${ended}~b.part`, 0, { startingUp: false }, true],
    ['another host, written just now', 'other-host~1~c.part', 0, { startingUp: true }, false],
    ['another host, idle just under the limit', 'other-host~1~c.part', idle - 60_000, { startingUp: false }, false],
    ['another host, idle for the limit', 'other-host~1~c.part', idle, { startingUp: false }, true],
    ['an unnamed partial, idle for the limit', 'd.part', idle, { startingUp: true }, true],
    ['a file that is no partial', 'note.txt', idle * 2, { startingUp: true }, false],
  ];

  it.each(table.map(([name, ...row]) => [`${name}: ${row[3] ? 'removed' : 'kept'}`, ...row] as const))(
    '%s',
    async (_name, file, ageMs, options, removed) => {
      const { files, now, left } = storeWith({ [file]: ageMs });
      expect(await files.sweepPartials({ ...options, now })).toBe(removed ? 1 : 0);
      expect(left()).toEqual(removed ? [] : [file]);
    },
  );

  it('a store with no tmp/ yet has nothing to sweep', async () => {
    const files = new LocalObjectFiles(path.join(os.tmpdir(), `ferry-none-${process.pid}-${Date.now()}`));
    expect(await files.sweepPartials({ startingUp: true })).toBe(0);
  });
});
