/**
 * Plain-language phrases per built-in requirement (`fixtures/search-phrases.json`): how people describe the
 * situation a requirement answers. Added to the text a requirement is embedded and indexed from, so that a
 * question asked in everyday words meets the requirement written in a standard's words (document expansion).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURES_DIR } from '../library.js';

let phrases: Map<string, readonly string[]> | undefined;

function load(): Map<string, readonly string[]> {
  const file = JSON.parse(readFileSync(new URL('search-phrases.json', DEFAULT_FIXTURES_DIR), 'utf8')) as {
    phrases: Record<string, Record<string, string[]>>;
  };
  const map = new Map<string, readonly string[]>();
  for (const [frameworkId, requirements] of Object.entries(file.phrases)) {
    for (const [requirementId, list] of Object.entries(requirements)) {
      map.set(`${frameworkId}\u001f${requirementId}`, list);
    }
  }
  return map;
}

/** The phrases of one requirement (none for imported catalogs). */
export function searchPhrases(frameworkId: string, requirementId: string): readonly string[] {
  phrases ??= load();
  return phrases.get(`${frameworkId}\u001f${requirementId}`) ?? [];
}
