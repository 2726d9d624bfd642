// Types of release.config.js (kept apart: the values file must stay plain JavaScript).

/** Marketing version, e.g. "1.4.0". */
export declare const APP_VERSION: string;
/** Android versionCode, a positive integer. */
export declare const ANDROID_VERSION_CODE: number;
/** iOS build number, e.g. "17" or "1.4.17". */
export declare const IOS_BUILD_NUMBER: string;
/** Pre-release switch: runtimeVersion becomes `<APP_VERSION>-pre`. */
export declare const IS_PRERELEASE: boolean;
