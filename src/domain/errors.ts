/**
 * Domain errors know nothing of HTTP or Kubernetes; the API maps them to status codes
 * in one middleware, the controller maps them to reconcile outcomes in one function.
 * Messages of these errors are safe to show to the caller; they never carry secrets.
 */
export class DomainError extends Error {
  constructor(message: string, readonly details: ReadonlyArray<{ message: string; path?: string }> = []) {
    super(message);
    this.name = new.target.name;
  }
}
/** The request or spec is invalid; retrying it unchanged cannot succeed. */
export class InputError extends DomainError {}
export class NotFoundError extends DomainError {}
/** The target is in a state that does not allow the operation (yet). */
export class ConflictError extends DomainError {}
/** Authenticated, but not allowed to do this. */
export class NotAllowedError extends DomainError {}
/** Missing or invalid credentials. */
export class AuthenticationError extends DomainError {}
export class RateLimitedError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}
/** A dependency (API server, database, object store) is unavailable; retry later. */
export class UnavailableError extends DomainError {}
