// `make bench`: starts the real components once and runs every benchmark, printing
// figures. Ratios are against a baseline measured in the same run, because the
// machine is shared and noisy; absolute numbers are for orientation only.
import { startStack } from '../../src/devenv/stack.js';
import { controlPlaneBenchmark } from './control-plane.bench.js';
import { controllerBenchmark } from './controller.bench.js';
import { apiBenchmark } from './api.bench.js';
import { rendererBenchmark } from './renderer.bench.js';

export interface BenchContext {
  env: Record<string, string>;
  print(line: string): void;
}

const benchmarks: Array<[string, (ctx: BenchContext) => Promise<void>]> = [
  ['control plane: StaticExport writes vs ConfigMap writes', controlPlaneBenchmark],
  ['controller: 1,000 StaticExports to render Jobs', controllerBenchmark],
  ['REST API: job status and search at 100k sections, caller-stats at 20M events', apiBenchmark],
  ['renderer: python3.11-doc export, archive vs zip -r / tar czf', rendererBenchmark],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const t0 = performance.now();
  const stack = await startStack({ databaseUrl: process.env.DATABASE_URL || undefined });
  const startup = performance.now() - t0;
  try {
    console.log(`environment startup (etcd + kube-apiserver, postgres, s3 in parallel): ${(startup / 1000).toFixed(1)} s`);
    for (const [name, bench] of benchmarks) {
      if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
      console.log(`\n## ${name}`);
      await bench({ env: { ...stack.env }, print: (line) => console.log(`  ${line}`) });
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
