import { Type } from 'typebox';
import { OrgIdParam, Timestamp } from '../../shared/schemas.js';
import { EU_AI_ACT_ROLES } from '../../shared/vocabulary.js';

export { OrgIdParam as ProfileParams };

const EuAiActRoleSchema = Type.Enum(EU_AI_ACT_ROLES, { description: EU_AI_ACT_ROLES.join(' | ') });

const ProfileFactsProperties = {
  euAiActRoles: Type.Array(EuAiActRoleSchema, {
    uniqueItems: true,
    maxItems: EU_AI_ACT_ROLES.length,
    description:
      'What the organization is under the EU AI Act (Art. 3); empty when it holds none of these roles',
  }),
  generalPurposeModels: Type.Boolean({
    description: 'It provides general-purpose AI models (Art. 51–55 then apply)',
  }),
  biometrics: Type.Boolean({
    description: 'It uses or provides biometric identification, categorisation or emotion recognition',
  }),
  lawEnforcement: Type.Boolean({ description: 'It is, or works for, a law-enforcement authority' }),
};

export const ProfileBody = Type.Object(ProfileFactsProperties, { additionalProperties: false });

export const ProfileQuery = Type.Object({
  dryRun: Type.Optional(
    Type.Boolean({ description: 'Answer with what saving would exclude; nothing is written' }),
  ),
});

const EXCLUSION_STATES = ['applied', 'confirmed', 'overridden', 'proposed'] as const;

export const ProfileViewSchema = Type.Object({
  orgId: Type.String(),
  profile: Type.Union([
    Type.Object({ ...ProfileFactsProperties, updatedBy: Type.String(), updatedAt: Timestamp }),
    Type.Null(),
  ]),
  exclusions: Type.Array(
    Type.Object({
      requirementId: Type.String(),
      title: Type.String(),
      justification: Type.String({ description: 'What the profile writes as the reason it does not apply' }),
      state: Type.Enum(EXCLUSION_STATES, {
        description:
          'applied: the record holds the profile’s exclusion | confirmed: someone recorded it as not applicable ' +
          'themselves | overridden: someone recorded that it applies | proposed: not written yet (a dry run, or ' +
          'the record was withdrawn since)',
      }),
      reviewer: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'The EU AI Act requirements the profile excludes, in the regulation’s order' },
  ),
  bindNoOne: Type.Array(Type.Object({ requirementId: Type.String(), title: Type.String() }), {
    description: 'Provisions that bind no organization (penalties, entry into force): never gaps',
  }),
});
