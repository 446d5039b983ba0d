import { Type } from 'typebox';
import { ErrorEnvelopeSchema } from '../../shared/schemas.js';
import {
  ISO_42001,
  OSCAL_FORMATS,
  SOA_CHECK_KINDS,
  SOA_CHECK_SEVERITIES,
  SOA_FORMATS,
} from '../../shared/vocabulary.js';

const snapshotId = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const OscalExportQuery = Type.Object({
  format: Type.Optional(
    Type.Enum(OSCAL_FORMATS, {
      default: 'json',
      description: 'json: the package envelope; zip: the five documents as files of one archive',
    }),
  ),
  frameworkId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      default: ISO_42001,
      description:
        'The framework of the package: iso-42001 (default), iso-42001-clauses, nist-ai-rmf, eu-ai-act, ' +
        'iso-27001, iso-27001-clauses, gdpr, or the id of an imported OSCAL catalog. Unknown → 404. ' +
        'Only iso-42001 can be combined with snapshotId (400 otherwise).',
    }),
  ),
  snapshotId: Type.Optional(
    snapshotId(
      'Export the state frozen in this compliance snapshot instead of the live state (ISO/IEC 42001 only)',
    ),
  ),
});

export const SoaExportQuery = Type.Object({
  format: Type.Optional(Type.Enum(SOA_FORMATS, { default: 'json', description: SOA_FORMATS.join(' | ') })),
  snapshotId: Type.Optional(
    snapshotId('Render the state frozen in this compliance snapshot instead of the live state'),
  ),
});

/** A document of the given media types, sent as is (never re-serialised). */
export const fileResponse = (description: string, mediaTypes: string[]) => ({
  description,
  content: Object.fromEntries(
    mediaTypes.map((mediaType) => [
      mediaType,
      {
        schema: mediaType.startsWith('application/json') ? Type.Unknown() : Type.String({ format: 'binary' }),
      },
    ]),
  ),
});

/** The export waited longer than the configured bound for its job. */
export const exportErrorResponses = { 503: ErrorEnvelopeSchema };

export const SoaCheckSchema = Type.Object({
  kind: Type.Enum(SOA_CHECK_KINDS, { description: SOA_CHECK_KINDS.join(' | ') }),
  severity: Type.Enum(SOA_CHECK_SEVERITIES, { description: SOA_CHECK_SEVERITIES.join(' | ') }),
  message: Type.String({ description: 'What is wrong, naming the risk, control, system or assessment' }),
  riskId: Type.Optional(Type.String()),
  controlId: Type.Optional(Type.String({ description: 'An ISO/IEC 42001 Annex A control' })),
  systemId: Type.Optional(Type.String()),
  assessmentId: Type.Optional(Type.String()),
});

export const SoaChecksSchema = Type.Object({
  orgId: Type.String(),
  checks: Type.Array(SoaCheckSchema, { description: 'Most severe first, then by kind' }),
});
