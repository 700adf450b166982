import { z } from 'zod';

/** Who called the assistant: its web widget, the REST API, or anything else (CLI, integrations). */
export const CALLER_TYPES = ['web', 'api', 'other'] as const;
export const callerTypeSchema = z.enum(CALLER_TYPES);
export type CallerType = z.infer<typeof callerTypeSchema>;

export interface AssistantEvent {
  projectId: string;
  occurredAt: Date;
  caller: CallerType;
}

export interface CallerStats {
  web: number;
  api: number;
  other: number;
  total: number;
}

/** A half-open interval [from, to) of instants. */
export interface DateRange {
  from: Date;
  to: Date;
}

/** Assistant request events (PostgreSQL is the adapter: src/adapters/postgres). */
export interface AssistantEvents {
  /** Appends events atomically (all or none); returns how many were stored. */
  record(events: readonly AssistantEvent[]): Promise<number>;
  /** Events of a project in [from, to), by caller type. */
  callerStats(projectId: string, range: DateRange): Promise<CallerStats>;
}
