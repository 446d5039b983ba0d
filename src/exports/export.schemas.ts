import { Type } from 'typebox';
import { ErrorEnvelopeSchema } from '../schemas.js';
import { OSCAL_FORMATS } from './oscal-export.js';
import { SOA_FORMATS } from './soa/index.js';

export const OscalExportQuery = Type.Object({
  format: Type.Optional(
    Type.Enum(OSCAL_FORMATS, {
      default: 'json',
      description: 'json: the package envelope; zip: the five documents as files of one archive',
    }),
  ),
});

export const SoaExportQuery = Type.Object({
  format: Type.Optional(Type.Enum(SOA_FORMATS, { default: 'json', description: SOA_FORMATS.join(' | ') })),
  snapshotId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Render the state frozen in this compliance snapshot instead of the live state',
    }),
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
