import { ApiClient, type Query } from '../../src/clients/api-client/client.js';
// The daemon's vocabularies, declared once (src/shared/vocabulary.ts has no imports, so the bundle can take it).
import {
  ASSESSMENT_SOURCES,
  type AssessmentSource,
  REQUIREMENT_STATUSES,
  type RequirementStatus,
} from '../../src/shared/vocabulary.js';

export { ApiClient, ApiError } from '../../src/clients/api-client/client.js';
// The API's response bodies, as the server's schemas declare them (type-only: nothing of the server is bundled).
export type * from '../../src/clients/api-client/types.js';

/** Sent on the window when the API refuses the key (revoked, say): the console signs out. */
export const UNAUTHORIZED = 'comply:unauthorized';

export type Status = RequirementStatus;
export const STATUSES: readonly Status[] = REQUIREMENT_STATUSES;
export type Assessment = AssessmentSource;
export const ASSESSMENTS: readonly Assessment[] = ASSESSMENT_SOURCES;

/**
 * The console's client for a key: every call goes to /api/v1 on the page's own origin with the signed-in key
 * in the Authorization header and no cookies; a 401 (a revoked key, say) is announced on the window.
 */
export const consoleClient = (key: string) =>
  new ApiClient(window.location.origin, key, {
    onUnauthorized: () => window.dispatchEvent(new Event(UNAUTHORIZED)),
    init: { credentials: 'omit' },
  });

/**
 * The console's client for a signed-in person: no Authorization header, the browser sends the HttpOnly session
 * cookie (same origin only) and, on every change, the page's Origin, which the API checks. `quiet` leaves a
 * 401 unannounced: the console asks whether a session is still there before it has one.
 */
export const sessionClient = (quiet = false) =>
  new ApiClient(window.location.origin, undefined, {
    ...(quiet ? {} : { onUnauthorized: () => window.dispatchEvent(new Event(UNAUTHORIZED)) }),
    init: { credentials: 'same-origin' },
  });

/** A form's filters as a query: an empty field ("any") is left out, as an unset one is. */
export function filled(filters: Query): Query {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
}
