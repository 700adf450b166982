import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import { callerTypeSchema, type AssistantEvent, type AssistantEvents } from './assistant-events.js';

/**
 * One line of an import file:
 *   {"projectId": "<uuid>", "timestamp": "2024-03-01T09:30:00Z", "caller": "web"}
 * The timestamp must carry an offset (Z or +hh:mm): migrated data must not depend on a guess.
 */
export const importLineSchema = z.strictObject({
  projectId: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  caller: callerTypeSchema,
});

const MAX_REPORTED_PROBLEMS = 20;

export interface ImportOptions {
  file: string;
  events: AssistantEvents;
  /** Whether a project id is registered. */
  projectExists(projectId: string): Promise<boolean>;
  /** Progress lines (the CLI writes them to stderr). */
  progress(line: string): void;
  batchSize?: number;
  /** Monotonic milliseconds, for the rate shown in progress lines. */
  now?: () => number;
}

async function* lines(file: string): AsyncGenerator<{ number: number; text: string }> {
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  for await (const text of reader) {
    number++;
    if (text.trim() !== '') yield { number, text };
  }
}

function parseLine(text: string): { event?: AssistantEvent; problem?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON' };
  }
  const result = importLineSchema.safeParse(json);
  if (!result.success) return { problem: result.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ') };
  return { event: { projectId: result.data.projectId.toLowerCase(), occurredAt: new Date(result.data.timestamp), caller: result.data.caller } };
}

/**
 * Two passes: the whole file is validated first (every line, every project id), so a bad file
 * writes nothing; then events are stored in batches, each batch atomically with its rollups.
 */
export async function importAssistantEvents(options: ImportOptions): Promise<{ imported: number }> {
  const now = options.now ?? (() => performance.now());
  const batchSize = options.batchSize ?? 10_000;
  const problems: string[] = [];
  const projects = new Set<string>();
  let total = 0;
  for await (const { number, text } of lines(options.file)) {
    const { event, problem } = parseLine(text);
    if (problem !== undefined) {
      if (problems.length < MAX_REPORTED_PROBLEMS) problems.push(`line ${number}: ${problem}`);
      else if (problems.length === MAX_REPORTED_PROBLEMS) problems.push('... (further problems not shown)');
      continue;
    }
    projects.add(event!.projectId);
    total++;
  }
  for (const projectId of projects) {
    if (!(await options.projectExists(projectId))) problems.unshift(`project ${projectId} is not registered (docport projects create)`);
  }
  if (problems.length > 0) throw new InputError(`${options.file}: nothing imported`, problems.map((message) => ({ message })));
  options.progress(`validated ${total} events of ${projects.size} projects; importing`);

  const started = now();
  let lastReport = started;
  let imported = 0;
  let batch: AssistantEvent[] = [];
  const flush = async (): Promise<void> => {
    imported += await options.events.record(batch);
    batch = [];
    const at = now();
    if (at - lastReport >= 1000 || imported === total) {
      lastReport = at;
      const rate = imported / Math.max((at - started) / 1000, 0.001);
      options.progress(`imported ${imported}/${total} events (${total === 0 ? 100 : Math.floor((imported / total) * 100)}%), ${Math.round(rate)} events/s`);
    }
  };
  for await (const { number, text } of lines(options.file)) {
    const { event } = parseLine(text);
    if (!event) throw new Error(`${options.file} changed during the import (line ${number}); ${imported} events were imported`);
    batch.push(event);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  return { imported };
}
