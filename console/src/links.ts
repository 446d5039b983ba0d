/**
 * The console's own addresses (hash routes: the page never reloads and the key never reaches a URL). Every
 * id is encoded here: requirement ids hold spaces, parentheses and slashes (`Art. 26(6)`).
 */
const seg = encodeURIComponent;

export const pageHref = (page: string) => `#/${page}`;

/** A framework's page, or one of its requirements opened in the panel. */
export const frameworkHref = (frameworkId: string, requirementId?: string) =>
  `#/frameworks/${seg(frameworkId)}${requirementId === undefined ? '' : `/${seg(requirementId)}`}`;

/** The attestations page with an epoch chosen. */
export const epochHref = (epochId: string) => `#/attestations/${seg(epochId)}`;

/** The route in the address bar: `#/frameworks/eu-ai-act/Art.%2026(6)` → `['frameworks', 'eu-ai-act', 'Art. 26(6)']`. */
export const readRoute = () =>
  (window.location.hash.replace(/^#\/?/, '') || 'overview').split('/').map(decodeURIComponent);
