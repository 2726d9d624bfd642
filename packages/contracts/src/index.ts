export * from './errors.js';
export * from './ota/channel.js';
export * from './ota/platform.js';
export * from './ota/release.js';
export * from './ota/release-history.js';
export * from './ota/rollback.js';
export * from './ota/runtime-version.js';
export * from './ota/update-policy.js';
