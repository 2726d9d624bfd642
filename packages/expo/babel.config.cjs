// Used by jest only; Metro in the app applies the app's own Babel config to these sources.
module.exports = { presets: ['module:@react-native/babel-preset'] };
