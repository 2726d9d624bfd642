import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../scripts/local-registry.js';
import {
  majorsOf,
  type NodeEngineInput,
  nodeEngineProblems,
  repositoryNodeEngines,
  UNDECLARED_NEEDS,
} from '../scripts/node-engines.js';

const RANGE = '^22.14.0 || ^24.3.0 || ^26.0.0';
const fine: NodeEngineInput = {
  declared: RANGE,
  versions: { primary: '24.21.0', others: ['22.23.3', '26.12.1'] },
  workspaces: [{ name: '@ferry/server', node: RANGE }],
  dependencies: [
    { name: 'cookie@2.0.2', node: '>=22' },
    { name: 'better-sqlite3@12.11.1', node: '20.x || 22.x || 23.x || 24.x || 25.x || 26.x' },
    { name: 'metro@0.84.6', node: '^20.19.4 || ^22.13.0 || ^24.3.0 || >= 25.0.0' },
    { name: 'no-engines@1.0.0', node: undefined },
    ...UNDECLARED_NEEDS,
  ],
};

const untested = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => `engines.node admits Node ${from + i}, but no version of it is tested`,
  );

describe('nodeEngineProblems', () => {
  it.each<[string, Partial<NodeEngineInput>, string[]]>([
    ['a consistent, true and tested range', {}, []],
    ['no declared range', { declared: undefined }, ['the root package.json declares no engines.node']],
    [
      'a workspace declaring another range',
      { workspaces: [{ name: '@ferry/cli', node: '>=20.19' }] },
      [`@ferry/cli: engines.node is ">=20.19", must be "${RANGE}"`],
    ],
    [
      'a workspace declaring none',
      { workspaces: [{ name: '@ferry/web', node: undefined }] },
      [`@ferry/web: engines.node is "missing", must be "${RANGE}"`],
    ],
    // Node 20 with dependencies that need 22: what npm ci printed 20 EBADENGINE warnings for.
    [
      'a dependency needing more than the range allows',
      {
        declared: '^20.19.4 || ^22.14.0 || ^24.3.0 || ^26.0.0',
        versions: { primary: '24.21.0', others: ['20.19.4', '22.23.3', '26.12.1'] },
      },
      [
        'cookie@2.0.2 needs node ">=22", narrower than engines.node "^20.19.4 || ^22.14.0 || ^24.3.0 || ^26.0.0"',
        'better-sqlite3 (Node-API 10) needs node "^22.14.0 || >=23.6.0", narrower than engines.node "^20.19.4 || ^22.14.0 || ^24.3.0 || ^26.0.0"',
      ],
    ],
    [
      'a minimum below a dependency minimum within a line',
      { declared: '^22.12.0 || ^24.3.0 || ^26.0.0' },
      [
        'metro@0.84.6 needs node "^20.19.4 || ^22.13.0 || ^24.3.0 || >= 25.0.0", narrower than engines.node "^22.12.0 || ^24.3.0 || ^26.0.0"',
        'better-sqlite3 (Node-API 10) needs node "^22.14.0 || >=23.6.0", narrower than engines.node "^22.12.0 || ^24.3.0 || ^26.0.0"',
      ],
    ],
    // What better-sqlite3's own engines (">=22") would let through: its binary needs Node-API 10.
    [
      'a 22 line below the Node-API version a native dependency needs',
      { declared: '^22.13.0 || ^24.3.0 || ^26.0.0' },
      [
        'better-sqlite3 (Node-API 10) needs node "^22.14.0 || >=23.6.0", narrower than engines.node "^22.13.0 || ^24.3.0 || ^26.0.0"',
      ],
    ],
    [
      'an open range',
      { declared: '^22.14.0 || ^24.3.0 || >=26.0.0' },
      [
        'engines.node "^22.14.0 || ^24.3.0 || >=26.0.0" admits every future Node major; name the tested lines',
        ...untested(27, 99),
        'better-sqlite3@12.11.1 needs node "20.x || 22.x || 23.x || 24.x || 25.x || 26.x", narrower than engines.node "^22.14.0 || ^24.3.0 || >=26.0.0"',
      ],
    ],
    [
      'a line without a tested version',
      { versions: { primary: '24.21.0', others: ['22.23.3'] } },
      ['engines.node admits Node 26, but no version of it is tested'],
    ],
    [
      'a pinned version outside the range',
      { versions: { primary: '24.21.0', others: ['22.12.0', '26.12.1'] } },
      [
        `scripts/node-versions.json: 22.12.0 is outside engines.node "${RANGE}"`,
        'engines.node admits Node 22, but no version of it is tested',
      ],
    ],
    [
      'a pin that is not a version',
      { versions: { primary: '24', others: ['22.23.3', '26.12.1'] } },
      [
        'scripts/node-versions.json: "24" is not an exact version',
        'engines.node admits Node 24, but no version of it is tested',
      ],
    ],
    [
      'two pins of one line',
      { versions: { primary: '24.21.0', others: ['24.20.0', '22.23.3', '26.12.1'] } },
      ['scripts/node-versions.json pins two versions of one major'],
    ],
  ])('%s', (_name, change, expected) => {
    // The workspace declares the row's range unless the row says otherwise.
    const workspaces = [{ name: '@ferry/server', node: change.declared ?? RANGE }];
    const problems = nodeEngineProblems({ ...fine, workspaces, ...change });
    expect([...problems].sort()).toEqual([...expected].sort());
  });

  it('reads the majors a range admits', () => {
    expect(majorsOf(RANGE)).toEqual([22, 24, 26]);
    expect(majorsOf('^20.19 || >=22 <23')).toEqual([20, 22]);
  });
});

describe('this repository', () => {
  const input = repositoryNodeEngines(REPO_ROOT);

  it('declares one true range, everywhere, and tests every line of it', () => {
    expect(nodeEngineProblems(input)).toEqual([]);
    // The rule saw the workspaces and the lockfile (an empty read would pass anything).
    expect(input.workspaces.map((workspace) => workspace.name)).toEqual(
      expect.arrayContaining(['@ferry/server', '@ferry/cli', '@ferry/expo', '@ferry/web']),
    );
    expect(input.dependencies.find((dependency) => dependency.name.startsWith('cookie@'))?.node).toBeDefined();
  });
});
