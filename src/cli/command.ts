/** One `docport <name>` subcommand. Each lives in its own file under commands/. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Returns the process exit code. `env` is process.env, parsed by the command with src/config. */
  run(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number>;
}
