/** The OSCAL release whose JSON schemas are vendored in `schemas/`; every document declares it. */
export const OSCAL_VERSION = '1.2.1';
/** Namespace of the v5 UUIDs of exported objects; changing it would change every exported UUID. */
export const OSCAL_UUID_NAMESPACE = 'cc26c110-8116-4e41-89f2-4279a6cb58be';
/** Namespace of the properties that carry our own values (raw status, evidence type, ...). */
export const COMPLY_PROP_NS = 'urn:comply:oscal';
export const OSCAL_FILES = {
    catalog: 'catalog.json',
    profile: 'profile.json',
    ssp: 'ssp.json',
    assessmentPlan: 'assessment-plan.json',
    assessmentResults: 'assessment-results.json',
};
export const OSCAL_MEDIA_TYPES = {
    catalog: 'application/oscal.catalog+json',
    profile: 'application/oscal.profile+json',
    ssp: 'application/oscal.ssp+json',
    assessmentPlan: 'application/oscal.ap+json',
};
//# sourceMappingURL=constants.js.map