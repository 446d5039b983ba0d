import { OSCAL_UUID_NAMESPACE } from '../../../platform/oscal/constants.js';
import { ISO_42001 } from '../../../shared/vocabulary.js';
import type { ExportFramework } from '../export.types.js';
import { EXPORT_FRAMEWORK } from '../framework.js';
import { uuidV5Generator } from './uuid-v5.js';

const uuidV5 = uuidV5Generator(OSCAL_UUID_NAMESPACE);

// The name is a JSON array so that no choice of ids can make two different subjects collide.
function stableUuid(...parts: string[]): string {
  return uuidV5(JSON.stringify(parts));
}

/** `stableUuid(...parts, last)` for many values of `last`, without re-encoding the common parts. */
function stableUuidFamily(...parts: string[]): (last: string) => string {
  const prefix = `${JSON.stringify(parts).slice(0, -1)},`;
  return (last) => uuidV5(`${prefix}${JSON.stringify(last)}]`);
}

/** A framework's catalog: the same for every org, new with each version of the framework. */
export function catalogUuidOf(framework: Pick<ExportFramework, 'id' | 'version'>): string {
  return stableUuid('catalog', framework.id, framework.version);
}

/** The same subject gets the same UUID in every export (OSCAL asks for per-subject UUIDs). */
export const catalogUuid = catalogUuidOf(EXPORT_FRAMEWORK);

/**
 * The UUIDs of one org's package for one framework. ISO/IEC 42001 keeps the names it has always had
 * (`["org", orgId, …]`); every other framework adds its id (`["org", orgId, "framework", id, …]`), so
 * no subject of one framework's package shares a UUID with another's.
 */
export function oscalIds(
  orgId: string,
  framework: Pick<ExportFramework, 'id' | 'version'> = EXPORT_FRAMEWORK,
) {
  const scope = framework.id === ISO_42001 ? ['org', orgId] : ['org', orgId, 'framework', framework.id];
  const id = (...parts: string[]) => stableUuid(...scope, ...parts);
  return {
    catalog: catalogUuidOf(framework),
    profile: id('profile'),
    profileCatalogResource: id('profile', 'catalog-resource'),
    ssp: id('ssp'),
    assessmentPlan: id('assessment-plan'),
    assessmentResults: id('assessment-results'),
    orgParty: id('party', 'organization'),
    person: (name: string) => id('party', 'person', name),
    thisSystem: id('component', 'this-system'),
    aiSystem: (systemId: string) => id('component', 'ai-system', systemId),
    informationType: id('information-type', 'aims-records'),
    tool: id('assessment-asset', 'tool'),
    assessmentPlatform: id('assessment-asset', 'platform'),
    implementedRequirement: (controlId: string) => id('implemented-requirement', controlId),
    byComponent: (controlId: string) => id('implemented-requirement', controlId, 'this-system'),
    evidenceResource: stableUuidFamily(...scope, 'evidence'),
    observation: stableUuidFamily(...scope, 'observation'),
    finding: (controlId: string) => id('finding', controlId),
    risk: (riskId: string) => id('risk', riskId),
    riskMitigation: (riskId: string, requirementId: string) =>
      id('risk', riskId, 'mitigating-factor', requirementId),
    riskRemediation: (riskId: string) => id('risk', riskId, 'remediation'),
    /** One result per export: a new UUID for every generation time. */
    result: (generatedAt: string) => id('result', generatedAt),
  };
}

export type OscalIds = ReturnType<typeof oscalIds>;

/**
 * An OSCAL token (`^[\p{L}_][\p{L}\p{N}._-]*$`) for an id in a framework's own notation, lower case and
 * close to NIST's style: `A.6.2.4` → `a.6.2.4`, `AC-2(1)` → `ac-2.1`, `Art. 26(6)` → `art.26.6`,
 * `GOVERN 1.1` → `govern-1.1`, `4.1` → `_4.1`. Different ids may give the same token (`AC-2(1)` and
 * `AC-2.1`): `OscalTokens` makes them unique within a package.
 */
export function oscalControlId(controlId: string): string {
  const token = controlId
    .trim()
    .toLowerCase()
    .replace(/\(([^()]*)\)/g, '.$1')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/[.-]*\.[.-]*/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '');
  if (token === '') return '_';
  return /^[\p{L}_]/u.test(token) ? token : `_${token}`;
}

const STATEMENT_SUFFIX = '_smt';

/**
 * The tokens of one package's controls, statements and groups, unique among each other. Controls are
 * named first, in package order, then groups: an id whose token is taken gets `_2`, `_3`, … So the same
 * framework always gets the same tokens, and ids that are tokens already (ISO/IEC 42001) stay as they are.
 */
export class OscalTokens {
  private readonly used = new Set<string>();
  private readonly controls = new Map<string, string>();
  private readonly groups = new Map<string, string>();

  constructor(controlIds: Iterable<string>, groupIds: Iterable<string>) {
    for (const id of controlIds) {
      if (this.controls.has(id)) continue;
      const token = this.unique(oscalControlId(id), (candidate) => [candidate, candidate + STATEMENT_SUFFIX]);
      this.controls.set(id, token);
    }
    for (const id of groupIds) {
      if (this.groups.has(id)) continue;
      this.groups.set(
        id,
        this.unique(oscalControlId(id), (candidate) => [candidate]),
      );
    }
  }

  private unique(base: string, claims: (candidate: string) => string[]): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}_${n}`;
      const names = claims(candidate);
      if (names.some((name) => this.used.has(name))) continue;
      for (const name of names) this.used.add(name);
      return candidate;
    }
  }

  control(controlId: string): string {
    return this.controls.get(controlId) ?? oscalControlId(controlId);
  }

  statement(controlId: string): string {
    return `${this.control(controlId)}${STATEMENT_SUFFIX}`;
  }

  group(domain: string): string {
    return this.groups.get(domain) ?? oscalControlId(domain);
  }
}
