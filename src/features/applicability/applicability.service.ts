/**
 * The applicability profile: what an organization is under the EU AI Act, and the exclusions that follow.
 *
 * A requirement is excluded when none of the roles it binds (`appliesTo`) is one the org holds (providing
 * general-purpose AI models adds the role of their provider), when it concerns biometric systems and the org
 * uses none, or law enforcement and the org is not in it. Saving the profile writes each exclusion into the
 * requirement's record (not applicable, with a generated justification, reviewer `applicability profile`),
 * so scores, gaps, conflicts, the SoA and history read it like any other. The officer's own applicability
 * judgement always wins: a record whose applicability someone set is never overwritten, and changing it
 * overrides the profile for that requirement. When the profile changes, its earlier exclusions that no
 * longer follow are withdrawn. Provisions that bind no organization (penalties, dates) are no gaps at all
 * (`bindsNoOne`, gaps.ts) and need no exclusion.
 */
import type { Em } from '../../platform/db/database.js';
import {
  type ChangeAuthor,
  type RecordRow,
  readRecords,
  writeJudgement,
} from '../../records/records.store.js';
import { EU_AI_ACT, PROFILE_REVIEWER } from '../../shared/vocabulary.js';
import type { Requirement } from '../cte/framework.types.js';
import type { FrameworkLibrary } from '../cte/library.js';
import { currentLibrary } from '../cte/library.service.js';
import { type ProfileFacts, readProfile, type StoredProfile, writeProfile } from './applicability.store.js';

/** How a role of `appliesTo` reads in a justification. */
const ROLE_WORDS: Record<string, string> = {
  provider: 'providers',
  deployer: 'deployers',
  importer: 'importers',
  distributor: 'distributors',
  authorisedRepresentative: 'authorised representatives',
  gpaiProvider: 'providers of general-purpose AI models',
  notifiedBody: 'notified bodies',
  thirdPartySupplier: 'suppliers of tools and components to providers',
};

const BIOMETRIC = /biometric|emotion recognition/i;
const LAW_ENFORCEMENT = /law[- ]enforcement/i;

export interface ProfileExclusion {
  requirementId: string;
  title: string;
  justification: string;
}

/** Where an exclusion stands in the org's records. */
export type ExclusionState = 'applied' | 'confirmed' | 'overridden' | 'proposed';

const listed = (items: readonly string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? '');

/** Why the profile excludes a requirement, or nothing when it applies. */
function exclusionReasons(requirement: Requirement, facts: ProfileFacts): string[] {
  const roles = new Set<string>(facts.euAiActRoles);
  if (facts.generalPurposeModels) roles.add('gpaiProvider');
  const reasons: string[] = [];
  const binds = requirement.appliesTo ?? [];
  if (binds.length > 0 && !binds.some((role) => roles.has(role))) {
    const own = facts.euAiActRoles.map((role) => ROLE_WORDS[role].replace(/s$/, ''));
    const noModels = binds.includes('gpaiProvider') && !facts.generalPurposeModels;
    reasons.push(
      `it binds ${listed(binds.map((role) => ROLE_WORDS[role] ?? role))}, and the organization is ${own.length > 0 ? `a ${own.join(' and a ')}` : 'none of them'}${noModels ? ' and provides no general-purpose AI model' : ''}`,
    );
  }
  const scope = requirement.scope ?? '';
  if (!facts.biometrics && BIOMETRIC.test(scope)) {
    reasons.push(
      'it concerns biometric identification, categorisation or emotion recognition, which the organization does not use',
    );
  }
  if (!facts.lawEnforcement && LAW_ENFORCEMENT.test(scope)) {
    reasons.push('it concerns law enforcement, in which the organization does not work');
  }
  return reasons;
}

/** The EU AI Act requirements the profile excludes, with the justification it writes for each. */
export function profileExclusions(library: FrameworkLibrary, facts: ProfileFacts): ProfileExclusion[] {
  const framework = library.framework(EU_AI_ACT);
  if (!framework) return [];
  return framework.requirements.flatMap((requirement) => {
    if (requirement.bindsNoOne) return [];
    const reasons = exclusionReasons(requirement, facts);
    if (reasons.length === 0) return [];
    return [
      {
        requirementId: requirement.id,
        title: requirement.title,
        justification: `Not applicable by the organization's applicability profile: ${reasons.join('; ')}.`,
      },
    ];
  });
}

/** True for a record whose exclusion the profile wrote (and nobody has changed since). */
const profileOwned = (record: RecordRow | undefined) =>
  record?.applicable === false && record.reviewer === PROFILE_REVIEWER;

function stateOf(record: RecordRow | undefined): ExclusionState {
  if (!record || record.applicable === null) return 'proposed';
  if (profileOwned(record)) return 'applied';
  return record.applicable ? 'overridden' : 'confirmed';
}

export interface ProfileView {
  orgId: string;
  profile: StoredProfile | null;
  exclusions: (ProfileExclusion & { state: ExclusionState; reviewer: string | null })[];
  /** Provisions that bind no organization (penalties, entry into force): never gaps. */
  bindNoOne: { requirementId: string; title: string }[];
}

function viewOf(
  orgId: string,
  library: FrameworkLibrary,
  profile: StoredProfile | null,
  facts: ProfileFacts | null,
  records: ReadonlyMap<string, RecordRow>,
): ProfileView {
  return {
    orgId,
    profile,
    exclusions: (facts ? profileExclusions(library, facts) : []).map((exclusion) => {
      const record = records.get(exclusion.requirementId);
      return { ...exclusion, state: stateOf(record), reviewer: record?.reviewer ?? null };
    }),
    bindNoOne: (library.framework(EU_AI_ACT)?.requirements ?? [])
      .filter((requirement) => requirement.bindsNoOne)
      .map(({ id, title }) => ({ requirementId: id, title })),
  };
}

async function euAiActRecords(em: Em, orgId: string): Promise<Map<string, RecordRow>> {
  return new Map((await readRecords(em, orgId, EU_AI_ACT)).map((record) => [record.requirementId, record]));
}

export async function profileView(em: Em, orgId: string): Promise<ProfileView> {
  const [{ library }, profile, records] = await Promise.all([
    currentLibrary(em),
    readProfile(em, orgId),
    euAiActRecords(em, orgId),
  ]);
  return viewOf(orgId, library, profile, profile, records);
}

/** What saving these facts would exclude, against the org's records as they are: nothing is written. */
export async function previewProfile(em: Em, orgId: string, facts: ProfileFacts): Promise<ProfileView> {
  const [{ library }, profile, records] = await Promise.all([
    currentLibrary(em),
    readProfile(em, orgId),
    euAiActRecords(em, orgId),
  ]);
  return viewOf(orgId, library, profile, facts, records);
}

/**
 * Saves the profile and brings the records in line, in one transaction: each exclusion it implies is written
 * where nobody judged the requirement's applicability, and its earlier exclusions that no longer follow are
 * withdrawn. Judgements someone made stay as they are.
 */
export async function saveProfile(
  em: Em,
  orgId: string,
  facts: ProfileFacts,
  author: ChangeAuthor,
): Promise<ProfileView> {
  const { library } = await currentLibrary(em);
  const exclusions = profileExclusions(library, facts);
  await em.transactional(async (tx) => {
    await writeProfile(tx, orgId, facts, author.actor, new Date());
    const records = await euAiActRecords(tx, orgId);
    const excluded = new Set(exclusions.map((exclusion) => exclusion.requirementId));
    for (const exclusion of exclusions) {
      const record = records.get(exclusion.requirementId);
      const judgedBySomeone = record && record.applicable !== null && !profileOwned(record);
      if (judgedBySomeone || (profileOwned(record) && record?.justification === exclusion.justification))
        continue;
      await writeJudgement(
        tx,
        { orgId, frameworkId: EU_AI_ACT, requirementId: exclusion.requirementId },
        { applicable: false, justification: exclusion.justification, reviewer: PROFILE_REVIEWER },
        { ...author, note: exclusion.justification },
      );
    }
    for (const record of records.values()) {
      if (!profileOwned(record) || excluded.has(record.requirementId)) continue;
      await writeJudgement(
        tx,
        { orgId, frameworkId: EU_AI_ACT, requirementId: record.requirementId },
        { applicable: null, justification: null, reviewer: null },
        { ...author, note: 'applies again under the applicability profile' },
      );
    }
  });
  return profileView(em, orgId);
}
