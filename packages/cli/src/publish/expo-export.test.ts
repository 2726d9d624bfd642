import { describe, expect, it } from 'vitest';
import { expoExportArgs } from './expo-export.js';

describe('expoExportArgs: the export names every published platform and nothing else', () => {
  it.each([
    [
      ['ios', 'android'],
      ['--platform', 'ios', '--platform', 'android'],
    ],
    [['ios'], ['--platform', 'ios']],
    [['android'], ['--platform', 'android']],
  ] as const)('%j', (platforms, platformArgs) => {
    expect(expoExportArgs(platforms, '/app/dist')).toEqual([
      'expo',
      'export',
      ...platformArgs,
      '--output-dir',
      '/app/dist',
    ]);
  });

  it('never runs a bare export (which also renders the web app)', () => {
    expect(() => expoExportArgs([], '/app/dist')).toThrow(/no platform/);
  });
});
