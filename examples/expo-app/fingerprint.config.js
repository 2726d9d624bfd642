// Read by @expo/fingerprint: by `npx expo-updates fingerprint:generate --platform <p>` and, in the
// same way, by `ferry publish` and `ferry gate`, so both print the value Ferry's guard compares.
// Ferry's preset is @expo/fingerprint's `strict` preset written out (native modules and config
// plugins hashed file by file, the whole evaluated app config) plus the release control file
// (release.config.js) as a source of its own: every native-determining input the guard must see.
// docs/publishing.md ("The fingerprint") explains it; keep this file committed.
const { ferryFingerprintConfig } = require('@ferry/expo/fingerprint');

module.exports = ferryFingerprintConfig(__dirname);
