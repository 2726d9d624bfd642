/** An expected failure: printed as one line, exits with its own code. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
