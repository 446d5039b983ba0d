/** The EU AI Act's risk tiers and the lifecycle stages an AI system moves through. */
export const RISK_LEVELS = ['minimal', 'limited', 'high', 'unacceptable'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const LIFECYCLE_STAGES = ['design', 'development', 'validation', 'deployed', 'retired'] as const;
