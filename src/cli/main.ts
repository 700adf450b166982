#!/usr/bin/env node
// The `docport` command (package.json bin). Subcommands register in `commands` below.
import type { Command } from './command.js';
import { manifestsCommand } from './commands/manifests.js';
import { controllerCommand } from './commands/controller.js';

const commands: readonly Command[] = [
  manifestsCommand,
  controllerCommand,
];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return ['usage: docport <command> [options]', '', 'commands:', ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`docport: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return command.run(args, process.env);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`docport: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
