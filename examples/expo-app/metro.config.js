// Metro reads the Ferry SDK from this checkout (a file: dependency): withFerry watches it and
// resolves its imports from this app, so react and react-native exist once in the bundle.
const { getDefaultConfig } = require('expo/metro-config');
const { withFerry } = require('@ferry/expo/metro');

module.exports = withFerry(getDefaultConfig(__dirname));
