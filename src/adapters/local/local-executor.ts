import { spawn, type ChildProcess } from 'node:child_process';
import type { RenderRequest } from '../../apis/render/contract.js';
import type { Logger } from '../../observability/logger.js';
import { redactString } from '../../observability/logger.js';
import type { RenderExecutor, RenderObservation, RenderOwner } from '../../ports/render-executor.js';

interface LocalRender {
  name: string;
  generation: number;
  child?: ChildProcess;
  observation: RenderObservation;
}

/**
 * Renders as child processes of the controller (single-machine installs, `make run`,
 * end-to-end tests): the same `docport render` command and inputs as the Job, with the
 * process exit standing in for the Job's outcome. Renders die with the controller; a
 * restarted controller sees them absent and starts them again.
 */
export class LocalProcessExecutor implements RenderExecutor {
  readonly kind = 'local' as const;
  private readonly renders = new Map<string, LocalRender[]>();

  constructor(
    private readonly command: readonly string[],
    private readonly env: Readonly<Record<string, string>>,
    private readonly log: Logger,
    private readonly onChange: (owner: RenderOwner) => void,
  ) {
    if (command.length === 0) throw new Error('the local executor needs a render command');
  }

  observe(owner: RenderOwner, generation: number): Promise<{ current: RenderObservation; others: string[] }> {
    const mine = this.renders.get(owner.uid) ?? [];
    const current = mine.find((r) => r.generation === generation);
    return Promise.resolve({ current: current?.observation ?? { state: 'absent' }, others: mine.filter((r) => r !== current).map((r) => r.name) });
  }

  start(owner: RenderOwner, name: string, request: RenderRequest): Promise<void> {
    const mine = this.renders.get(owner.uid) ?? [];
    if (mine.some((r) => r.name === name)) return Promise.resolve();
    const [file, ...args] = this.command as [string, ...string[]];
    const startTime = new Date();
    const render: LocalRender = { name, generation: request.generation, observation: { state: 'running', name, startTime } };
    const child = spawn(file, args, { env: { ...this.env, RENDER_REQUEST: JSON.stringify(request) }, stdio: ['ignore', 'ignore', 'pipe'] });
    render.child = child;
    let stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4096);
    });
    const finish = (observation: RenderObservation): void => {
      if (render.observation.state !== 'running') return;
      render.observation = observation;
      render.child = undefined;
      this.onChange(owner);
    };
    child.once('error', (error) => finish({ state: 'failed', name, message: `cannot start ${file}: ${error.message}`, startTime, completionTime: new Date() }));
    child.once('exit', (code, signal) => {
      const lastLine = redactString(stderrTail.trim().split('\n').pop() ?? '').slice(0, 1000);
      if (code === 0) finish({ state: 'succeeded', name, startTime, completionTime: new Date() });
      else finish({ state: 'failed', name, message: `${signal ? `killed by ${signal}` : `exit code ${code}`}${lastLine ? `: ${lastLine}` : ''}`, startTime, completionTime: new Date() });
    });
    this.renders.set(owner.uid, [...mine, render]);
    this.log.info('local render started', { render: name, pid: child.pid });
    return Promise.resolve();
  }

  async remove(owner: RenderOwner, names: readonly string[]): Promise<void> {
    const mine = this.renders.get(owner.uid) ?? [];
    const removed = mine.filter((r) => names.includes(r.name));
    await Promise.all(removed.map((r) => stopChild(r.child)));
    const kept = mine.filter((r) => !names.includes(r.name));
    if (kept.length > 0) this.renders.set(owner.uid, kept);
    else this.renders.delete(owner.uid);
  }

  prepareNamespace(): Promise<void> {
    return Promise.resolve();
  }

  /** Stops every running render (controller shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.renders.values()].flat().map((r) => stopChild(r.child)));
  }
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
