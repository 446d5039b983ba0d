/**
 * Plain-language phrases per built-in requirement (`fixtures/search-phrases.json`): how people describe the
 * situation a requirement answers. Added to the text a requirement is embedded and indexed from, so that a
 * question asked in everyday words meets the requirement written in a standard's words (document expansion).
 *
 * The same file holds each requirement's situations: longer first-person stories of the same kind (what an
 * ML engineer, a security lead or a product manager would tell, then what a lawyer, a CISO, an engineer writing in
 * a second language and a founder would). They go to the phrase ranker alone, where each is scored on its own,
 * and not into the requirement's text: a story carries many incidental words that would blur the requirement's
 * own vocabulary in the dense embedding and the whole-text ranker (measured on
 * the development half of the plain-language queries with three situations a requirement: in the text as
 * well, recall@5 0.723 → 0.706; in the phrase ranker alone 0.721, with MRR@10 0.968 → 0.977 and nDCG@10
 * 0.793 → 0.804; with four, 0.723, 0.976 and 0.804; with eight, 0.728, 0.983 and 0.807, and on the first 80
 * questions of the independent set recall@5 0.445 → 0.478).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURES_DIR } from '../library.js';
let loaded;
function byRequirement(lists) {
    const map = new Map();
    for (const [frameworkId, requirements] of Object.entries(lists ?? {})) {
        for (const [requirementId, list] of Object.entries(requirements)) {
            map.set(`${frameworkId}\u001f${requirementId}`, list);
        }
    }
    return map;
}
function load() {
    const file = JSON.parse(readFileSync(new URL('search-phrases.json', DEFAULT_FIXTURES_DIR), 'utf8'));
    return { phrases: byRequirement(file.phrases), situations: byRequirement(file.situations) };
}
/** The phrases of one requirement (none for imported catalogs). */
export function searchPhrases(frameworkId, requirementId) {
    loaded ??= load();
    return loaded.phrases.get(`${frameworkId}\u001f${requirementId}`) ?? [];
}
/** The situations of one requirement, for the phrase ranker only (none for imported catalogs). */
export function searchSituations(frameworkId, requirementId) {
    loaded ??= load();
    return loaded.situations.get(`${frameworkId}\u001f${requirementId}`) ?? [];
}
//# sourceMappingURL=search-phrases.js.map