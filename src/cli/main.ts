#!/usr/bin/env node
// The `docport` command (package.json bin). Subcommands register in `commands` below.
import type { Command } from './command.js';

// Loaded on use: a command pulls in only its own dependencies (Playwright, the controller,
// the API server), which keeps every `docport` call quick to start.
const commands: Readonly<Record<string, () => Promise<Command>>> = {
  manifests: async () => (await import('./commands/manifests.js')).manifestsCommand,
  controller: async () => (await import('./commands/controller.js')).controllerCommand,
  api: async () => (await import('./commands/api.js')).apiCommand,
  render: async () => (await import('./commands/render.js')).renderCommand,
  index: async () => (await import('./commands/index-site.js')).indexCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  orgs: async () => (await import('./commands/orgs.js')).orgsCommand,
  projects: async () => (await import('./commands/projects.js')).projectsCommand,
  keys: async () => (await import('./commands/keys.js')).keysCommand,
  analytics: async () => (await import('./commands/analytics.js')).analyticsCommand,
};

async function usage(): Promise<string> {
  const all = await Promise.all(Object.values(commands).map((load) => load()));
  const width = Math.max(...all.map((c) => c.name.length));
  return ['usage: docport <command> [options]', '', 'commands:', ...all.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(await usage());
    return name === undefined ? 2 : 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    console.error(`docport: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  return (await load()).run(args, process.env);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`docport: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
