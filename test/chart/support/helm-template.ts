import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('../../../../test/chart/helm-template/main.go', import.meta.url));
export const CHART = fileURLToPath(new URL('../../../../charts/docport', import.meta.url));

/**
 * Builds test/chart/helm-template (Go text/template + Debian's sprig) once per source
 * version, cached under ~/.cache/docport, and returns the binary's path.
 */
export async function helmTemplateBinary(): Promise<string> {
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const binary = path.join(homedir(), '.cache', 'docport', `helm-template-${hash}`);
  if (existsSync(binary)) return binary;
  if (!existsSync('/usr/share/gocode/src/github.com/Masterminds/sprig')) {
    throw new Error('Go sprig library missing: run `make deps` (installs golang-go, golang-github-masterminds-sprig-dev, golang-gopkg-yaml.v2-dev)');
  }
  await mkdir(path.dirname(binary), { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`;
  await run('go', ['build', '-o', partial, SOURCE], {
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: path.join(tmpdir(), 'docport-helm-template-gocache'), GOFLAGS: '' },
  });
  await rename(partial, binary);
  return binary;
}

export interface RenderOptions {
  name?: string;
  namespace: string;
  values?: string[];
  apiVersions: string[];
}

async function withValueFiles<T>(values: string[], fn: (files: string[]) => Promise<T>): Promise<T> {
  const dir = path.join(tmpdir(), `docport-values-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir, { recursive: true });
  const files = await Promise.all(values.map(async (text, i) => {
    const file = path.join(dir, `values-${i}.yaml`);
    await writeFile(file, text);
    return file;
  }));
  return fn(files);
}

export async function helmTemplate(options: RenderOptions & { mode?: 'manifests' | 'values' | 'notes' }): Promise<string> {
  const binary = await helmTemplateBinary();
  return withValueFiles(options.values ?? [], async (files) => {
    const args = ['--chart', CHART, '--name', options.name ?? 'docs', '--namespace', options.namespace, '--api-versions', options.apiVersions.join(','),
      ...files.flatMap((f) => ['-f', f]),
      ...(options.mode === 'values' ? ['--print-values'] : options.mode === 'notes' ? ['--notes'] : [])];
    const { stdout } = await run(binary, args, { maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  });
}
