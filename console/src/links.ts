/**
 * The console's own addresses (hash routes: the page never reloads and the key never reaches a URL). Every
 * id is encoded here: requirement ids hold spaces, parentheses and slashes (`Art. 26(6)`).
 */
const seg = encodeURIComponent;

export const pageHref = (page: string) => `#/${page}`;

/** The applicability profile: what the organization is under the EU AI Act, and what therefore does not apply. */
export const scopeHref = () => '#/scope';

/** Every framework (no id), a framework's page, or one of its requirements opened in the record panel. */
export const frameworkHref = (frameworkId?: string, requirementId?: string) =>
  frameworkId === undefined
    ? '#/frameworks'
    : `#/frameworks/${seg(frameworkId)}${requirementId === undefined ? '' : `/${seg(requirementId)}`}`;

/** The gap list of a framework, every gap shown. */
export const gapsHref = (frameworkId: string) => `#/gaps/${seg(frameworkId)}`;

/** The attestations page with an epoch chosen. */
export const epochHref = (epochId: string) => `#/attestations/${seg(epochId)}`;

/** The AI systems, or one system's page. */
export const systemHref = (systemId?: string) =>
  `#/systems${systemId === undefined ? '' : `/${seg(systemId)}`}`;

/** The impact assessments, or one of them. */
export const assessmentHref = (assessmentId?: string) =>
  `#/assessments${assessmentId === undefined ? '' : `/${seg(assessmentId)}`}`;

/** The risk register, or one risk's page. */
export const riskHref = (riskId?: string) => `#/risks${riskId === undefined ? '' : `/${seg(riskId)}`}`;

/**
 * The route in the address bar: `#/frameworks/eu-ai-act/Art.%2026(6)` → `['frameworks', 'eu-ai-act', 'Art. 26(6)']`.
 * A query after the path (`#/accept?token=…`) is not part of the route.
 */
export const readRoute = () => (hashPath() || 'overview').split('/').map(decodeURIComponent);

const hashPath = () => window.location.hash.replace(/^#\/?/, '').split('?')[0];

/**
 * The token of the invitation link in the address bar. An invitation link, and the first-start set-up link,
 * is `<origin>/#/accept/<token>` (`#/accept?token=<token>` is read too): the token stays in the fragment,
 * which the browser never sends to a server.
 */
export function readInvitationToken(): string | null {
  const [page, token] = readRoute();
  if (page !== 'accept') return null;
  if (token) return token;
  const query = window.location.hash.split('?')[1];
  return query ? new URLSearchParams(query).get('token') : null;
}

/** The internal audits, or one audit's page. */
export const auditHref = (auditId?: string) => `#/audits${auditId === undefined ? '' : `/${seg(auditId)}`}`;

/** Every finding, or one finding's page. */
export const findingHref = (findingId?: string) =>
  `#/findings${findingId === undefined ? '' : `/${seg(findingId)}`}`;

/** The management reviews, or one review's page. */
export const reviewHref = (reviewId?: string) =>
  `#/reviews${reviewId === undefined ? '' : `/${seg(reviewId)}`}`;

/** The controlled documents, or one document's page. */
export const documentHref = (documentId?: string) =>
  `#/documents${documentId === undefined ? '' : `/${seg(documentId)}`}`;
