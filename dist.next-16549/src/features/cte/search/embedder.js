import { searchPhrases } from './search-phrases.js';
/**
 * Title, description, topic tags, the domain's title and the requirement's plain-language phrases (built-in
 * frameworks only): what a person would search a requirement by.
 */
export function requirementDocument(framework, requirement) {
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
export function libraryDocuments(frameworks) {
    return frameworks.flatMap((framework) => framework.requirements.map((requirement) => requirementDocument(framework, requirement)));
}
//# sourceMappingURL=embedder.js.map