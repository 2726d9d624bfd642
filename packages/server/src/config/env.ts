/** The environment a configuration is read from (process.env, or a test's own). */
export type Env = Record<string, string | undefined>;

/** Thrown at start-up; the message names the variable so an operator can fix it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
