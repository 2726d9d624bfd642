// Release control values (spec, "Release control values"), set by a person per release.
// Plain JavaScript on purpose: Expo's config loader transpiles only app.config.ts, and the ferry
// CLI (bump) rewrites these literals in place. Types: release.config.d.ts.

/** Marketing version shown in the stores; raised by a person at a store release. */
const APP_VERSION = '1.0.0';
/** Android versionCode: only ever goes up (ferry bump build). */
const ANDROID_VERSION_CODE = 2;
/** iOS build number: only ever goes up (ferry bump build). */
const IOS_BUILD_NUMBER = '1';
/** true: runtimeVersion `<APP_VERSION>-pre`, the guard is off and store deploys refuse the build. */
const IS_PRERELEASE = false;

module.exports = { APP_VERSION, ANDROID_VERSION_CODE, IOS_BUILD_NUMBER, IS_PRERELEASE };
