// Read by @expo/fingerprint (the ferry CLI pins its version and preset). The release control
// file is evaluated by app.config.ts but is not a config plugin, so name it as a source: the spec
// lists it among the native-determining inputs.
/** @type {import('@expo/fingerprint').Config} */
module.exports = {
  extraSources: [{ type: 'file', filePath: 'release.config.js', reasons: ['releaseControlFile'] }],
};
