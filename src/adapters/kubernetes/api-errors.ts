import { ApiException } from '@kubernetes/client-node';
import { ConflictError, InputError, NotAllowedError, NotFoundError, UnavailableError } from '../../domain/errors.js';

/** HTTP status of a Kubernetes API error, if it is one. */
export function apiStatus(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

function apiMessage(error: ApiException<unknown>): string {
  try {
    const body = typeof error.body === 'string' ? (JSON.parse(error.body) as { message?: string }) : (error.body as { message?: string });
    return body?.message ?? `HTTP ${error.code}`;
  } catch {
    return `HTTP ${error.code}`;
  }
}

/** Maps Kubernetes API errors to domain errors; the message is the API server's (no credentials). */
export function toDomainError(error: unknown, what: string): Error {
  if (!(error instanceof ApiException)) return new UnavailableError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  const message = `${what}: ${apiMessage(error)}`;
  switch (error.code) {
    case 404: return new NotFoundError(message);
    case 409: return new ConflictError(message);
    case 400: case 422: return new InputError(message);
    case 401: case 403: return new NotAllowedError(message);
    default: return new UnavailableError(message);
  }
}
