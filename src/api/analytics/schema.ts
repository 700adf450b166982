import { z } from 'zod';

const dateBound = (which: 'start' | 'end') =>
  z
    .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()], {
      error: 'must be an ISO 8601 date-time (e.g. 2024-03-01T09:30:00Z or 2024-03-01T11:30:00+02:00) or a date YYYY-MM-DD (UTC midnight)',
    })
    .describe(which === 'start'
      ? 'Inclusive start. A date means 00:00 UTC; a date-time without offset is read as UTC. Default: dateTo minus 30 days.'
      : 'Exclusive end. A date means 00:00 UTC of that day, so dateTo=2024-03-02 ends the range with March 1st. Default: now.');

export const callerStatsParams = z.object({
  projectId: z.uuid({ error: 'must be a project id (a UUID)' }).describe('Project id (UUID) from `docport projects list`.'),
});

export const callerStatsQuery = z.object({
  dateFrom: dateBound('start').optional(),
  dateTo: dateBound('end').optional(),
});

const count = z.number().int().min(0);
export const callerStatsResponse = z
  .object({
    web: count.describe('Assistant requests from the web widget.'),
    api: count.describe('Assistant requests through the REST API.'),
    other: count.describe('Assistant requests from any other caller.'),
    total: count.describe('web + api + other.'),
  })
  .describe('Assistant requests of a project in [dateFrom, dateTo), by caller type.');
