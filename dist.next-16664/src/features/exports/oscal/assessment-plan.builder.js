import { OSCAL_FILES } from '../../../platform/oscal/constants.js';
import { documentMetadata } from './oscal-context.js';
/** The service itself, named as the tool behind every observation. */
export function toolComponent(ctx) {
    return {
        uuid: ctx.ids.tool,
        type: 'software',
        title: 'comply',
        description: 'The compliance-management service that records the evidence and produces this package.',
        status: { state: 'operational' },
    };
}
/** A minimal plan, present because assessment results must import one: review every control. */
export function buildAssessmentPlan(ctx) {
    return {
        'assessment-plan': {
            uuid: ctx.ids.assessmentPlan,
            metadata: documentMetadata(ctx, `${ctx.orgMarkup}: ${ctx.frameworkName} evidence review plan`),
            'import-ssp': { href: OSCAL_FILES.ssp },
            'reviewed-controls': { 'control-selections': [{ 'include-all': {} }] },
            'assessment-subjects': [{ type: 'component', 'include-all': {} }],
            'assessment-assets': {
                components: [toolComponent(ctx)],
                'assessment-platforms': [
                    {
                        uuid: ctx.ids.assessmentPlatform,
                        title: 'comply',
                        'uses-components': [{ 'component-uuid': ctx.ids.tool }],
                    },
                ],
            },
        },
    };
}
//# sourceMappingURL=assessment-plan.builder.js.map