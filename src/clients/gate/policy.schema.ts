import { type Static, Type } from 'typebox';
import { RISK_SCORE_LEVELS } from '../../shared/vocabulary.js';

/**
 * The compliance gate's policy file (`comply.policy.json`), declared once: `comply check` validates
 * policy files against it, and `comply.policy.schema.json` at the repository root is this schema written
 * out (a test keeps the two equal; `npx tsx scripts/write-policy-schema.ts` rewrites the file).
 */

const FrameworkId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'A framework id as `comply frameworks list` shows it: iso-42001, eu-ai-act, gdpr, …',
});

const Points = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const FrameworkRulesSchema = Type.Object(
  {
    minScore: Type.Optional(
      Points(
        'Lowest acceptable score (0–100): effective statuses, direct records and what the crosswalk infers',
      ),
    ),
    minDirectScore: Type.Optional(Points('Lowest acceptable score counting the org’s direct records only')),
    maxCriticalGaps: Type.Optional(Count('Most gaps of priority critical the framework may have')),
    maxImportantGaps: Type.Optional(Count('Most gaps of priority important the framework may have')),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PolicySchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'Where editors find this schema' })),
    frameworks: Type.Optional(
      Type.Record(FrameworkId, FrameworkRulesSchema, {
        description: 'Rules per framework, by framework id',
      }),
    ),
    noExpiredEvidence: Type.Optional(
      Type.Object(
        {
          frameworks: Type.Optional(
            Type.Array(FrameworkId, {
              minItems: 1,
              uniqueItems: true,
              description: 'Only these frameworks (default: every framework)',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'No implemented requirement whose evidence has all expired (it then counts as in progress everywhere). `{}` checks every framework.',
        },
      ),
    ),
    regression: Type.Optional(
      Type.Object(
        {
          snapshot: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Label (or id) of the compliance snapshot to compare with; it must be intact',
          }),
          maxScoreDrop: Type.Optional(
            Points('Points the ISO/IEC 42001 score may fall below the snapshot’s (default 0)'),
          ),
          controls: Type.Optional(
            Type.Boolean({
              description:
                'Fail when a requirement recorded in the snapshot now has a lower status (default true)',
            }),
          ),
        },
        { additionalProperties: false, description: 'No regression against a named snapshot' },
      ),
    ),
    aiSystems: Type.Optional(
      Type.Object(
        {
          attestedWithinDays: Type.Integer({
            minimum: 1,
            maximum: 3650,
            description: 'Each system needs an attestation (naming it as systemId) this recent',
          }),
          riskLevels: Type.Optional(
            Type.Array(Type.Enum(['minimal', 'limited', 'high', 'unacceptable']), {
              minItems: 1,
              uniqueItems: true,
              description: 'Systems of these risk levels (default ["high"]); retired systems are left out',
            }),
          ),
          level: Type.Optional(
            Type.Enum(['L0', 'L2'], { description: 'Count only attestations of this level (L2: signed)' }),
          ),
        },
        { additionalProperties: false, description: 'Recent attestations for the AI systems that matter' },
      ),
    ),
    risks: Type.Optional(
      Type.Object(
        {
          maxUnacceptedResidual: Type.Optional(
            Type.Enum(RISK_SCORE_LEVELS, {
              description:
                'No risk whose residual level is above this lacks a valid acceptance (whatever the org’s own acceptable level)',
            }),
          ),
          noLapsedAcceptances: Type.Optional(
            Type.Boolean({
              description:
                'Fail on an acceptance that is stale (the risk changed since) or expired: accept the risk again, or withdraw it',
            }),
          ),
          noOverdueTreatments: Type.Optional(
            Type.Boolean({
              description: 'Fail on a treatment past its due date whose requirements are not all implemented',
            }),
          ),
        },
        {
          additionalProperties: false,
          minProperties: 1,
          description: 'Rules on the AI risk register (residual risk, acceptances, treatments)',
        },
      ),
    ),
    impactAssessments: Type.Optional(
      Type.Object(
        {
          noneDue: Type.Boolean({
            description:
              'Fail on an approved impact assessment due for re-assessment (its AI system changed, or its review date passed)',
          }),
        },
        { additionalProperties: false, description: 'Rules on the AI system impact assessments' },
      ),
    ),
    epochs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            epochId: Type.String({ minLength: 1, maxLength: 200 }),
            merkleRoot: Type.String({
              pattern: '^[0-9a-fA-F]{64}$',
              description:
                'The expected RFC 6962 Merkle root (hex SHA-256), e.g. from `comply attestations epoch`',
            }),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          description: 'Attestation epochs that must be wholly signed (L2) and have exactly this Merkle root',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'comply check policy',
    description: 'Rules `comply check` holds an organization to; every member is optional',
  },
);

export type Policy = Static<typeof PolicySchema>;
export type FrameworkRules = Static<typeof FrameworkRulesSchema>;

/** The JSON Schema document, as written to comply.policy.schema.json. */
export function policyJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...JSON.parse(JSON.stringify(PolicySchema)),
  };
}
