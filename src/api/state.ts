import type { Principal } from '../identity/model.js';

/** What the middleware chain learns about one request. */
export interface ApiState {
  requestId: string;
  /** The route template (e.g. /v1/static-export/jobs/{jobId}), the only path that reaches metrics and logs. */
  route?: string;
  principal?: Principal;
  /** Validated params, query and body, set by the validation step of a route. */
  input?: { params: unknown; query: unknown; body: unknown };
}
