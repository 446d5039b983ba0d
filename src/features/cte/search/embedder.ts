/** The embedder abstraction and the text each requirement is embedded from. */
import type { Framework, Requirement } from '../framework.types.js';
import { searchPhrases } from './search-phrases.js';

export interface Embedder {
  /** Names the model in API responses and next to stored vectors. */
  readonly model: string;
  readonly dimension: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export interface RequirementDocument {
  frameworkId: string;
  requirementId: string;
  title: string;
  /** The full text to embed. */
  text: string;
}

/**
 * Title, description, topic tags, the domain's title and the requirement's plain-language phrases (built-in
 * frameworks only): what a person would search a requirement by.
 */
export function requirementDocument(framework: Framework, requirement: Requirement): RequirementDocument {
  const domain = framework.domains?.find((candidate) => candidate.id === requirement.domain)?.title;
  const topics = (requirement.topics ?? []).map((topic) => topic.replace(/-/g, ' ')).join(', ');
  const text = [
    `${requirement.title}.`,
    requirement.description,
    topics && `Topics: ${topics}.`,
    domain && `${domain}.`,
    ...searchPhrases(framework.id, requirement.id).map((phrase) => `${phrase}.`),
  ]
    .filter(Boolean)
    .join(' ');
  return { frameworkId: framework.id, requirementId: requirement.id, title: requirement.title, text };
}

export function libraryDocuments(frameworks: readonly Framework[]): RequirementDocument[] {
  return frameworks.flatMap((framework) =>
    framework.requirements.map((requirement) => requirementDocument(framework, requirement)),
  );
}
