import { Type } from 'typebox';
import { OrgId, PlainText, Timestamp } from '../../shared/schemas.js';
import { LIFECYCLE_STAGES, RISK_LEVELS } from '../../shared/vocabulary.js';
export const RiskLevelSchema = Type.Enum(RISK_LEVELS, {
    description: 'EU AI Act risk tier: minimal | limited | high | unacceptable',
});
const lifecycleStage = (options = {}) => Type.Enum(LIFECYCLE_STAGES, { description: LIFECYCLE_STAGES.join(' | '), ...options });
export const LifecycleStageSchema = lifecycleStage();
export const AiSystemSchema = Type.Object({
    systemId: Type.String(),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    owner: Type.String(),
    purpose: Type.String(),
    riskLevel: RiskLevelSchema,
    lifecycleStage: LifecycleStageSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
});
const fields = {
    name: PlainText({ minLength: 1, maxLength: 200, description: 'Unique in the organization, ignoring case' }),
    description: PlainText({ maxLength: 10_000 }),
    owner: PlainText({ minLength: 1, maxLength: 200, description: 'Accountable person or team' }),
    purpose: PlainText({ minLength: 1, maxLength: 4000, description: 'Intended purpose' }),
    riskLevel: RiskLevelSchema,
    lifecycleStage: LifecycleStageSchema,
};
export const CreateAiSystemBody = Type.Object({
    name: fields.name,
    description: Type.Optional(fields.description),
    owner: fields.owner,
    purpose: fields.purpose,
    riskLevel: fields.riskLevel,
    lifecycleStage: Type.Optional(lifecycleStage({ default: 'design' })),
}, { additionalProperties: false });
/** Any subset of the mutable fields; `description: null` clears it. */
export const UpdateAiSystemBody = Type.Object({
    name: Type.Optional(fields.name),
    description: Type.Optional(Type.Union([fields.description, Type.Null()])),
    owner: Type.Optional(fields.owner),
    purpose: Type.Optional(fields.purpose),
    riskLevel: Type.Optional(fields.riskLevel),
    lifecycleStage: Type.Optional(fields.lifecycleStage),
}, { additionalProperties: false, minProperties: 1 });
export const AiSystemParams = Type.Object({
    orgId: OrgId,
    systemId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const AiSystemListQuery = Type.Object({
    riskLevel: Type.Optional(RiskLevelSchema),
    lifecycleStage: Type.Optional(LifecycleStageSchema),
});
export const AiSystemListSchema = Type.Object({
    orgId: Type.String(),
    systems: Type.Array(AiSystemSchema, { description: 'Ordered by name' }),
});
//# sourceMappingURL=ai-systems.schemas.js.map