// ESM entry: re-exports the CommonJS implementation so `import` and `require` share one module instance.
import helpers from './index.cjs';

export const {
  APP_ENVS,
  APP_ENV_TABLE,
  CODE_SIGNING_ALG,
  DEFAULT_APP_ENV,
  DEFAULT_KEY_ID,
  MANIFEST_PATH,
  appEnvSettings,
  appManifestPath,
  channelFor,
  isAppEnv,
  manifestUrlFor,
  parseAppEnv,
  runtimeVersionFor,
  runtimeVersionsFor,
  updatesConfig,
} = helpers;
