import type { FeatureRoutes } from '../../context.js';
import { errorResponses } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { ProfileBody, ProfileParams, ProfileQuery, ProfileViewSchema } from './applicability.schemas.js';
import { previewProfile, profileView, saveProfile } from './applicability.service.js';

const TAG = 'assessments';
const PATH = '/orgs/:orgId/applicability-profile';

/** The org's applicability profile (under the org scope). */
export const applicabilityRoutes: FeatureRoutes = async function applicabilityRoutes(app, { ctx }) {
  app.get(
    PATH,
    {
      schema: {
        tags: [TAG],
        summary: 'The applicability profile and the EU AI Act exclusions it implies',
        params: ProfileParams,
        response: { 200: ProfileViewSchema, ...errorResponses },
      },
    },
    (request) => profileView(ctx.db.em(), request.params.orgId),
  );

  app.put(
    PATH,
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Save the applicability profile and write the exclusions it implies',
        description:
          'Each EU AI Act requirement the profile excludes (none of the roles it binds is the org’s, or it concerns ' +
          'biometrics or law enforcement the org is not in) is recorded as not applicable with a generated ' +
          'justification and the reviewer `applicability profile`, unless someone already judged its ' +
          'applicability: that judgement stays. Exclusions of an earlier profile that no longer follow are ' +
          'withdrawn. One transaction. With `?dryRun=true` nothing is written.',
        params: ProfileParams,
        querystring: ProfileQuery,
        body: ProfileBody,
        response: { 200: ProfileViewSchema, ...errorResponses },
      },
    },
    (request) => {
      const { orgId } = request.params;
      if (request.query.dryRun) return previewProfile(ctx.db.em(), orgId, request.body);
      const { actor } = principalOf(request);
      return saveProfile(ctx.db.em(), orgId, request.body, { actor: actor.name, keyId: actor.id });
    },
  );
};
