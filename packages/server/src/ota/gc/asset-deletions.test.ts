import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { holderMayRun, THIS_PROCESS } from './asset-deletions.js';

describe('holderMayRun: whether a collection claim may be taken over before it lapses', () => {
  // A process that has exited: its id is free (reused only after the id space wraps).
  const gone = spawnSync(process.execPath, ['-e', '']).pid;

  it.each([
    ['this process', THIS_PROCESS, true],
    ['a process of this host that is gone', `${os.hostname()}:${gone}`, false],
    ['a process of another host, alive or not', `another-host:${gone}`, true],
    ['a holder that names no process', `${os.hostname()}:not-a-pid`, true],
    ['a holder with no host', 'nothing', true],
  ])('%s → %s', (_, holder, mayRun) => {
    expect(holderMayRun(holder)).toBe(mayRun);
  });
});
