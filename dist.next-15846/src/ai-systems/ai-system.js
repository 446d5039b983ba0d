/** The EU AI Act's risk tiers and the lifecycle stages an AI system moves through. */
export const RISK_LEVELS = ['minimal', 'limited', 'high', 'unacceptable'];
export const LIFECYCLE_STAGES = ['design', 'development', 'validation', 'deployed', 'retired'];
//# sourceMappingURL=ai-system.js.map