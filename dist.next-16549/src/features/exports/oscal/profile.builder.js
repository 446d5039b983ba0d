import { OSCAL_FILES, OSCAL_MEDIA_TYPES } from '../../../platform/oscal/constants.js';
import { documentMetadata } from './oscal-context.js';
/**
 * The organization's baseline: every control (requirement) of the framework. Exclusions are not made here but justified
 * per control in the SSP, which is where a Statement of Applicability records them.
 */
export function buildProfile(ctx) {
    const resource = ctx.ids.profileCatalogResource;
    return {
        profile: {
            uuid: ctx.ids.profile,
            metadata: documentMetadata(ctx, `${ctx.orgMarkup}: ${ctx.frameworkName} baseline`),
            imports: [{ href: `#${resource}`, 'include-all': {} }],
            merge: { 'as-is': true },
            'back-matter': {
                resources: [
                    {
                        uuid: resource,
                        title: `${ctx.frameworkLabel} catalog`,
                        rlinks: [{ href: OSCAL_FILES.catalog, 'media-type': OSCAL_MEDIA_TYPES.catalog }],
                    },
                ],
            },
        },
    };
}
//# sourceMappingURL=profile.builder.js.map