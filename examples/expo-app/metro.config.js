// Expo's default Metro configuration: @ferry/expo is an ordinary package in node_modules.
const { getDefaultConfig } = require('expo/metro-config');

module.exports = getDefaultConfig(__dirname);
