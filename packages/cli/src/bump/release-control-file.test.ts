import { describe, expect, it } from 'vitest';
import { RELEASE_FILE } from '../../test/support/app-fixture.js';
import { ReleaseControlError, ReleaseControlFile } from './release-control-file.js';

describe('the release control file editor', () => {
  it('reads the four values', () => {
    expect(ReleaseControlFile.parse('release.js', RELEASE_FILE).values()).toEqual({
      APP_VERSION: '1.4.0',
      ANDROID_VERSION_CODE: 41,
      IOS_BUILD_NUMBER: '17',
      IS_PRERELEASE: false,
    });
  });

  it('changes only the literals: comments, quotes, order and layout stay', () => {
    const file = ReleaseControlFile.parse('release.js', RELEASE_FILE);
    file.set('APP_VERSION', '1.5.0');
    file.set('ANDROID_VERSION_CODE', 42);
    file.set('IOS_BUILD_NUMBER', '18');
    expect(file.text).toBe(
      RELEASE_FILE.replace("'1.4.0'", "'1.5.0'").replace('= 41;', '= 42;').replace('"17"', '"18"'),
    );
  });

  it('keeps a number a number and a string a string', () => {
    const source =
      'export const APP_VERSION = "2.0.0";\nexport const ANDROID_VERSION_CODE = "7";\nexport const IOS_BUILD_NUMBER = 7;\nexport const IS_PRERELEASE = true;\n';
    const file = ReleaseControlFile.parse('release.mjs', source);
    file.set('ANDROID_VERSION_CODE', 8);
    file.set('IOS_BUILD_NUMBER', 8);
    expect(file.text).toBe(source.replace('"7"', '"8"').replace('= 7;', '= 8;'));
  });

  it('edits values written inside module.exports too', () => {
    const source = `module.exports = {
  // marketing version
  APP_VERSION: '1.0.0',
  ANDROID_VERSION_CODE: 3, // never goes down
  IOS_BUILD_NUMBER: '3',
  IS_PRERELEASE: false,
};
`;
    const file = ReleaseControlFile.parse('release.js', source);
    file.set('ANDROID_VERSION_CODE', 4);
    expect(file.text).toBe(source.replace('3, //', '4, //'));
  });

  it('refuses a file without a literal value, or with two different ones', () => {
    expect(() => ReleaseControlFile.parse('release.js', 'const APP_VERSION = read();\n')).toThrow(ReleaseControlError);
    expect(() =>
      ReleaseControlFile.parse(
        'release.js',
        RELEASE_FILE.replace('module.exports = {', "module.exports = { APP_VERSION: '9.9.9', "),
      ),
    ).toThrow(/more than one value/);
  });

  it('refuses to write something that is not a version into a string literal', () => {
    const file = ReleaseControlFile.parse('release.js', RELEASE_FILE);
    expect(() => file.set('APP_VERSION', "1.0.0'; process.exit(); '")).toThrow(ReleaseControlError);
  });
});
