import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EdgeAuthorship, LibraryEdge, RequirementRef } from '../../src/features/cte/framework.types.js';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { fitBuiltinEmbedder } from '../../src/features/cte/search/create-embedder.js';
import { LexicalIndex } from '../../src/features/cte/search/lexical-index.js';
import { crosswalkNeighbours, RequirementSearch } from '../../src/features/cte/search/requirement-search.js';
import { evaluateSearch, type LabelledQuery } from '../../src/features/cte/search/search-evaluation.js';
import { searchPhrases } from '../../src/features/cte/search/search-phrases.js';
import { concepts, stem, words } from '../../src/features/cte/search/text-features.js';

const plain: LabelledQuery[] = JSON.parse(
  readFileSync(new URL('./search-queries-plain.json', import.meta.url), 'utf8'),
).queries;
const independent: LabelledQuery[] = JSON.parse(
  readFileSync(new URL('./search-queries-fresh.json', import.meta.url), 'utf8'),
).queries;
const dev = plain.filter((query) => query.split === 'dev');
const held = plain.filter((query) => query.split === 'test');
const library = loadBuiltinLibrary();

describe('the plain-language evaluation sets', () => {
  it('label only requirements that exist, each query in one half', () => {
    expect(plain.length).toBeGreaterThanOrEqual(150);
    expect(independent.length).toBeGreaterThanOrEqual(150);
    for (const query of [...plain, ...independent]) {
      expect(['dev', 'test']).toContain(query.split);
      expect(query.expected.length, query.query).toBeGreaterThan(0);
      for (const ref of query.expected) {
        const [frameworkId, requirementId] = ref.split(/:(.*)/s);
        expect(library.requirement(frameworkId, requirementId), ref).toBeDefined();
      }
    }
    expect(dev.length / plain.length).toBeGreaterThan(0.4);
    expect(dev.length / plain.length).toBeLessThan(0.6);
  });
});

describe('search phrases', () => {
  it('give every built-in requirement plain-language phrases, several outside the ISO clauses', () => {
    for (const framework of library.frameworks) {
      const least = framework.id.endsWith('-clauses') ? 1 : 3;
      for (const requirement of framework.requirements) {
        expect(
          searchPhrases(framework.id, requirement.id).length,
          `${framework.id} ${requirement.id}`,
        ).toBeGreaterThanOrEqual(least);
      }
    }
    expect(searchPhrases('nist-sp-800-53', 'AC-1')).toEqual([]);
  });
});

describe('everyday wording', () => {
  const conceptsOf = (text: string) => concepts(text);

  it('reads fine-tuning as training, not as a penalty, and contractions as words', () => {
    expect(conceptsOf('can we fine-tune the model on tickets')).not.toContain('penalties');
    expect(conceptsOf('check the new version is still fine')).not.toContain('penalties');
    expect(conceptsOf('what is the maximum fine')).toContain('penalties');
    expect(conceptsOf('is a one-pager fine?')).not.toContain('penalties');
    expect(conceptsOf('is it fine with the auditors')).not.toContain('penalties');
    expect(conceptsOf("it's fine because staging is internal")).not.toContain('penalties');
    expect(conceptsOf('we were fined last year')).toContain('penalties');
    expect(conceptsOf('can we get a fine.')).toContain('penalties');
    expect(conceptsOf('we keep a risk register')).not.toContain('registration');
    expect(conceptsOf('register the system in the EU database')).toContain('registration');
    expect(words("we can't delete it, it doesn't work")).toEqual(['delete', 'work']);
    expect(words('it won\u2019t stop')).toEqual(['stop']);
    expect(stem('anonymize')).toBe(stem('anonymise'));
    expect(stem('discriminating')).toBe(stem('discriminate'));
    expect(stem('stored')).toBe(stem('store'));
    expect(stem('applied')).toBe(stem('apply'));
    expect(stem('employees')).toBe('employee');
    expect(words('our US parent and the U.S. office, tell us')).toEqual([
      'usa',
      'parent',
      'usa',
      'office',
      'tell',
    ]);
    expect(conceptsOf('the notified body checked it')).not.toContain('notification');
  });

  it('reads training as staff training only when people are trained', () => {
    expect(conceptsOf('the model we trained on their recordings')).not.toContain('competence');
    expect(conceptsOf('training data for the classifier')).not.toContain('competence');
    expect(conceptsOf('security awareness training for staff')).toContain('competence');
    expect(conceptsOf('what AI training does everyone here need')).toContain('competence');
    expect(conceptsOf('we retrained the model on new data')).not.toContain('competence');
  });

  it('reads people trained on AI as training, and CVs as CV', () => {
    expect(conceptsOf('Who needs to be trained on AI at our company?')).toContain('competence');
    expect(conceptsOf('staff trained on how to use the assistant')).toContain('competence');
    expect(conceptsOf('a model trained on AI-generated text')).not.toContain('competence');
    expect(stem('CVs'.toLowerCase())).toBe(stem('cv'));
    expect(stem('gas')).toBe('gas');
    expect(conceptsOf('a pile of CVs')).toContain('high-risk');
  });

  it('reads screening by software as an automated decision, and background screening as it was', () => {
    for (const text of [
      'an algorithm is screening CVs',
      'we screen applicants with AI',
      'the AI screening tool ranks candidates',
    ]) {
      expect(words(text), text).toContain('autoscreen');
      expect(conceptsOf(text), text).toContain('automated-decision');
    }
    for (const text of ['pre-employment screening of new hires', 'we screen job candidates before hiring']) {
      expect(words(text), text).not.toContain('autoscreen');
      expect(conceptsOf(text), text).not.toContain('automated-decision');
    }
    // A job application is a person's, not software to secure.
    expect(words('an AI tool sorts job applications')).toContain('applicants');
    expect(words('application security requirements')).toContain('application');
  });

  it('ties everyday words to compliance concepts', () => {
    expect(conceptsOf('the model went haywire')).toContain('incident');
    expect(conceptsOf('servers in another country')).toContain('transfer');
    expect(conceptsOf('approves women at a lower rate')).toContain('bias');
  });
});

describe('lexical ranking', () => {
  it('ranks the document sharing the rarest words first and scores unrelated ones zero', () => {
    const index = new LexicalIndex([
      { title: 'Backups', text: 'Copies of data are kept and restore is tested.' },
      { title: 'Cryptography', text: 'Data is encrypted at rest and in transit.' },
      { title: 'Screening', text: 'Candidates are background checked.' },
    ]);
    const scores = index.scores('is our backup restore tested?');
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(scores[2]).toBe(0);
  });
});

describe('crosswalk lift', () => {
  const items = [
    { frameworkId: 'a', requirementId: '1', title: 'One' },
    { frameworkId: 'b', requirementId: '1', title: 'One elsewhere' },
    { frameworkId: 'c', requirementId: '9', title: 'Joined by an analyst' },
  ];
  const edge = (target: RequirementRef, added?: EdgeAuthorship): LibraryEdge => ({
    edgeId: target.frameworkId,
    source: { frameworkId: 'a', requirementId: '1' },
    target,
    relationship: 'intersect',
    origin: 'test',
    inferred: false,
    ...(added ? { added } : {}),
  });

  it('joins requirements through shipped edges only, both ways', () => {
    const analyst = { createdBy: 'key', createdAt: '2026-01-01T00:00:00Z' };
    const neighbours = crosswalkNeighbours(items, [
      edge({ frameworkId: 'b', requirementId: '1' }),
      edge({ frameworkId: 'c', requirementId: '9' }, analyst),
    ]);
    expect(neighbours.map((list) => [...list])).toEqual([[1], [0], []]);
  });

  it('raises the neighbours of the best requirement, not the best requirement itself', async () => {
    const lifted = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
    const plain = new RequirementSearch(lifted.embedder, lifted.index, lifted.lexical);
    const query = 'an AI impact assessment before we deploy';
    const [before, after] = [await plain.scores(query), await lifted.scores(query)];
    const top = lifted.index.bestRows(before, 1)[0];
    const neighbours = [...(lifted.neighbours?.[top] ?? [])];
    expect(neighbours.length).toBeGreaterThan(0);
    for (const row of neighbours) expect(after[row]).toBeGreaterThan(before[row]);
    expect(after[top]).toBe(before[top]);
  });
});

describe('search quality on both halves of the plain-language set (built-in embedder)', () => {
  let search: RequirementSearch;
  beforeAll(async () => {
    search = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
  });

  it('keeps recall@5, MRR@10 and nDCG@10 above the measured floor', async () => {
    const { recallAt5, mrr, ndcg } = await evaluateSearch(
      search,
      dev.filter((query) => query.style !== 'officer'),
    );
    // The development half as first written (109 questions; the officer's questions have a floor of their own
    // below). Measured 0.740, 0.979 and 0.818 (0.740, 0.979 and 0.814 before the officer's wording rules): the blend over texts expanded with everyday questions in several voices,
    // the everyday thesaurus, pseudo-relevance feedback, the crosswalk lift, first-person situations and stories
    // in the phrase ranker and the wording rules (0.611, 0.869 and 0.683 before them; 0.694, 0.965 and 0.780
    // before the feedback and the further voices; 0.723, 0.968 and 0.793 before the situations; 0.723, 0.976 and
    // 0.804 before the stories and the wording rules).
    expect(recallAt5).toBeGreaterThanOrEqual(0.7);
    expect(mrr).toBeGreaterThanOrEqual(0.95);
    expect(ndcg).toBeGreaterThanOrEqual(0.78);
  });

  it("keeps an officer's everyday questions, added to the development half later, above their floor", async () => {
    const { recallAt5, mrr, ndcg } = await evaluateSearch(
      search,
      dev.filter((query) => query.style === 'officer'),
    );
    // Measured 0.564, 0.792 and 0.646 with the wording rules for people trained on AI, software that screens
    // people and job applications, and the phrases written for them (0.449, 0.722 and 0.527 before).
    expect(recallAt5).toBeGreaterThanOrEqual(0.53);
    expect(mrr).toBeGreaterThanOrEqual(0.75);
    expect(ndcg).toBeGreaterThanOrEqual(0.61);
  });

  it('keeps the held-out test half above its floor too, so a regression on unseen queries fails', async () => {
    const { recallAt5, mrr, ndcg } = await evaluateSearch(search, held);
    // Measured 0.632, 0.893 and 0.723 (0.634, 0.895 and 0.726 before the officer's wording rules; 0.618, 0.868 and
    // 0.711 before the stories and the wording rules; 0.595,
    // 0.847 and 0.696 before the situations; 0.577, 0.850 and 0.679 before the feedback step and the further
    // voices; 0.502, 0.807 and 0.600 at first); never tuned on. The floor leaves a margin for ties.
    expect(recallAt5).toBeGreaterThanOrEqual(0.6);
    expect(mrr).toBeGreaterThanOrEqual(0.86);
    expect(ndcg).toBeGreaterThanOrEqual(0.69);
  });

  it('keeps both halves of the independent set above their floors', async () => {
    // Written by people who saw only the framework texts. The development half was read while tuning the
    // wording rules (measured 0.548, 0.811 and 0.648; 0.554, 0.812 and 0.647 before the officer's wording rules;
    // 0.489, 0.719 and 0.580 before them and the stories); the test half never was (0.510, 0.735 and 0.586;
    // 0.507, 0.730 and 0.586 before the officer's wording rules; 0.476, 0.708 and 0.555 before the stories).
    const halves = {
      dev: { recallAt5: 0.52, mrr: 0.78, ndcg: 0.61 },
      test: { recallAt5: 0.48, mrr: 0.7, ndcg: 0.55 },
    };
    for (const [half, floor] of Object.entries(halves)) {
      const quality = await evaluateSearch(
        search,
        independent.filter((query) => query.split === half),
      );
      expect(quality.recallAt5, half).toBeGreaterThanOrEqual(floor.recallAt5);
      expect(quality.mrr, half).toBeGreaterThanOrEqual(floor.mrr);
      expect(quality.ndcg, half).toBeGreaterThanOrEqual(floor.ndcg);
    }
  });

  it("answers an officer's everyday questions about AI training and CV screening with the duties that apply", async () => {
    const refs = async (query: string, limit: number) =>
      (await search.search(query, limit)).results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
    // Who must be trained: the AI literacy duty first, beside ISO 42001's competence requirements.
    const training = await refs('Who needs to be trained on AI at our company?', 5);
    expect(training.slice(0, 3)).toContain('eu-ai-act:Art. 4');
    expect(
      training.filter((ref) => ['iso-42001-clauses:7.2', 'iso-42001:A.4.6'].includes(ref)).length,
    ).toBeGreaterThan(0);
    // Software screening applicants is a high-risk employment use with deployer duties, not ISO 27001's
    // background checks on people being hired.
    const screening = await refs('an algorithm is screening CVs', 10);
    const employment = [
      'eu-ai-act:Art. 6(3)-(4)',
      'eu-ai-act:Art. 26(1)-(3)',
      'eu-ai-act:Art. 26(11)',
      'eu-ai-act:Art. 86',
    ];
    expect(screening.slice(0, 5).filter((ref) => employment.includes(ref)).length).toBeGreaterThanOrEqual(2);
    expect(screening).not.toContain('iso-27001:A.6.1');
  });

  it('answers a question in everyday words with requirements of several frameworks', async () => {
    const { results } = await search.search('someone wants us to delete all their data', 5);
    const refs = results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
    expect(refs).toEqual(expect.arrayContaining(['gdpr:Art. 17', 'iso-27001:A.8.10']));
    const distances = results.map((hit) => hit.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });
});
