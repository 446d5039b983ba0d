import type { Em } from '../../platform/db/database.js';
import { toIso } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';
import type { EuAiActRole } from '../../shared/vocabulary.js';

/** What an org is under the EU AI Act: the facts its exclusions follow from. */
export interface ProfileFacts {
  euAiActRoles: EuAiActRole[];
  generalPurposeModels: boolean;
  biometrics: boolean;
  lawEnforcement: boolean;
}

export interface StoredProfile extends ProfileFacts {
  updatedBy: string;
  updatedAt: string;
}

/** The org's applicability profile, or null before one is saved. */
export async function readProfile(em: Em, orgId: string): Promise<StoredProfile | null> {
  const [row] = await em.execute<(StoredProfile & { updatedAt: Date | string })[]>(
    `select eu_ai_act_roles as "euAiActRoles", general_purpose_models as "generalPurposeModels",
       biometrics, law_enforcement as "lawEnforcement", updated_by as "updatedBy", updated_at as "updatedAt"
     from applicability_profiles where org_id = ?`,
    [orgId],
  );
  return row ? { ...row, updatedAt: toIso(row.updatedAt) } : null;
}

export async function writeProfile(
  tx: Em,
  orgId: string,
  facts: ProfileFacts,
  updatedBy: string,
  now: Date,
): Promise<void> {
  await tx.execute(
    `insert into applicability_profiles
       (org_id, eu_ai_act_roles, general_purpose_models, biometrics, law_enforcement, updated_by, updated_at)
     values (?, ?::text[], ?, ?, ?, ?, ?)
     on conflict (org_id) do update set eu_ai_act_roles = excluded.eu_ai_act_roles,
       general_purpose_models = excluded.general_purpose_models, biometrics = excluded.biometrics,
       law_enforcement = excluded.law_enforcement, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
    [
      orgId,
      textArray(facts.euAiActRoles),
      facts.generalPurposeModels,
      facts.biometrics,
      facts.lawEnforcement,
      updatedBy,
      now,
    ],
  );
}
