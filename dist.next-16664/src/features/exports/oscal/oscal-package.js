import { OSCAL_VERSION } from '../../../platform/oscal/constants.js';
import { buildAssessmentPlan } from './assessment-plan.builder.js';
import { buildAssessmentResults } from './assessment-results.builder.js';
import { buildCatalog } from './catalog.builder.js';
import { evidenceResources } from './evidence.builder.js';
import { createOscalContext } from './oscal-context.js';
import { buildProfile } from './profile.builder.js';
import { buildSsp } from './ssp.builder.js';
/**
 * The five OSCAL documents of one organization. A pure function of its input: the same data gives the
 * same package, and UUIDs depend only on the org and object ids (plus the generation time for the result).
 */
export function buildOscalPackage(data) {
    const ctx = createOscalContext(data);
    const resources = evidenceResources(ctx);
    return {
        'oscal-package': {
            'oscal-version': OSCAL_VERSION,
            documents: {
                'catalog.json': buildCatalog(ctx),
                'profile.json': buildProfile(ctx),
                'ssp.json': buildSsp(ctx, resources),
                'assessment-plan.json': buildAssessmentPlan(ctx),
                'assessment-results.json': buildAssessmentResults(ctx),
            },
        },
    };
}
//# sourceMappingURL=oscal-package.js.map