/**
 * Text features for the built-in embedder: light-stemmed words, character n-grams and concept tags from a
 * compliance thesaurus, so that "keep logs" meets "record-keeping" and "audit trail".
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURES_DIR } from '../library.js';

const STOPWORDS = new Set(
  (
    'a an and are as at be been being both but by can could do does each either for from had has have how if in ' +
    'into is it its itself may might more most must no nor not of on once one only or other our out over own per ' +
    'same shall should so some such than that the their them then there these they this those through to too ' +
    'under until up upon very via was we were what when where whether which while who whom why will with within ' +
    'without would you your also any all about after again against before between during further here just us ' +
    'my me he she his her him'
  ).split(' '),
);

const VOWEL = /[aeiouy]/;

/** A light English stemmer: plural and verb endings only, enough to join log/logs/logging/logged. */
export function stem(word: string): string {
  // One spelling for British and American forms: organize/organise, analyze/analyse.
  let w = word.replace(/iz(e|es|ed|ing|ation|ations)$/, 'is$1').replace(/yz(e|es|ed|ing)$/, 'ys$1');
  // An acronym's plural: "CVs", "PCs", "VMs" (three letters, no vowel before the "s") meet "CV", "PC", "VM".
  if (w.length === 3 && w.endsWith('s') && !VOWEL.test(w.slice(0, 2))) return w.slice(0, 2);
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) return `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && VOWEL.test(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      // logging → logg → log; stopped → stopp → stop (but keep "ll"/"ss" endings such as "fill", "access").
      if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
      return w;
    }
  }
  // A final silent "e" goes, so that "discriminate" meets "discriminating" and "store" meets "stored".
  return w.length >= 5 && w.endsWith('e') && !w.endsWith('ee') ? w.slice(0, -1) : w;
}

/**
 * Everyday spellings brought to one form before splitting: "US" (the country), contractions ("don't" → "do
 * not"), "fine-tune" (a kind of training, not a penalty) and "works fine" (all right, not a penalty either),
 * "e-mail", the training of a model apart from the training of people, screening by software apart from the
 * background screening of people, a job application apart from a software application, a notified body, and a
 * register that is a list ("risk register") rather than a registration.
 */
function normalizeText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // The country, not the stopword "us": "a US cloud", "our U.S. parent".
      .replace(/\bU\.?S\.?(?=[\s,;:)?!]|$)/g, 'USA')
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\b(can)'t\b/g, '$1 not')
      .replace(/\bwon't\b/g, 'will not')
      .replace(/n't\b/g, ' not')
      .replace(/'(s|re|ve|ll|d|m)\b/g, '')
      .replace(/\bfine[\s-]?tun(e|es|ed|ing)\b/g, 'finetune')
      // "works fine", "is a one-pager fine?", "it's fine because": all right, not a penalty. Only "a", "the",
      // "what", "maximum" or a size before it make "fine" a penalty ("fines" and "fined" always are).
      .replace(
        /(?<!\b(?:a|an|the|any|what|which|no|big|bigger|biggest|huge|heavy|hefty|maximum|max|possible|potential|large|massive|regulatory|administrative|gdpr|eur|euro|million)\s)\bfine\b/g,
        'ok',
      )
      .replace(/\be-mail/g, 'email')
      // The railway is not training either: "lost it on the train".
      .replace(/\b((?:on|in|by|off) (?:the|a) )train\b/g, '$1railway')
      // Training a model is not training people: "trained on", "train the model", "training data", "model was
      // trained" become one word that the staff-training concept does not know. People are trained on a subject:
      // "trained on AI", "training on how to use it" stay training (but "trained on AI-generated data" does not).
      .replace(
        /\b(?:re)?train(?:s|ed|ing)?(?= (?:on|with|from)\b(?! (?:(?:the|our) )?(?:ai|artificial intelligence)\b(?![- ](?:generated|output|outputs|data|text|content|images)\b)| (?:how|using|the use)\b)| (?:(?:the|a|an|our|their|its|this|that|my|your|new|own|custom|base|ml|ai) )?(?:model|models|classifier|network|llm|llms|assistant|chatbot)\b| (?:data|dataset|datasets|set|sets|run|runs|job|jobs|pipeline|pipelines|shard|shards|corpus|example|examples|compute|cost|costs)\b)/g,
        'modeltrain',
      )
      .replace(
        /\b(model|models|classifier|network|llm|it|they|was|were|been|being) (?:re)?trained\b/g,
        '$1 modeltrain',
      )
      // Screening done by software (an algorithm screening CVs, an AI screening tool, screening applicants with AI)
      // is an automated decision about people, not the background screening of someone being hired: one word.
      .replace(
        /\b(algorithms?|ai|software|tools?|models?|systems?|bots?|programs?|machines?|computers?)((?: is| are| that| which| will| to| now| automatically)*) screen(?:s|ed|ing)?\b/g,
        '$1$2 autoscreen',
      )
      .replace(/\b(?:ai|automated|automatic|algorithmic|machine)[- ]screen(?:s|ed|ing)?\b/g, 'autoscreen')
      .replace(
        /\bscreen(?:s|ed|ing)?\b(?= (?:tools?|models?|software|assistants?|systems?|algorithms?|engines?|plugins?)\b|(?: [a-z]+){0,3} (?:with|using|by|through) (?:(?:an?|the|our) )?(?:ai|algorithms?|software|models?|tools?|machine learning|ml)\b)/g,
        'autoscreen',
      )
      // A job or loan application is a person asking, not a piece of software: "job applications" meets
      // "job applicants", not application security.
      .replace(
        /\b(job|loan|credit|mortgage|visa|asylum|benefits?|insurance|rental|tenancy|housing|university|school) applications?\b/g,
        '$1 applicants',
      )
      // A notified body assesses conformity; it is not something that was notified.
      .replace(/\bnotified bod(y|ies)\b/g, 'notifiedbody')
      // A "risk register" or "incident register" is a list kept in-house, not registration with an authority.
      .replace(
        /\b(risk|risks|incident|incidents|asset|assets|issue|issues|vendor|vendors|supplier|suppliers|model|models|processing|complaint|complaints|decision|decisions) register\b/g,
        '$1 records',
      )
  );
}

/** Lower-case words (accents removed, hyphenated words split), stopwords kept. */
function tokens(text: string): string[] {
  return normalizeText(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/** Lower-case words (accents removed, hyphenated words split), without stopwords. */
export function words(text: string): string[] {
  return tokens(text).filter((word) => !STOPWORDS.has(word));
}

interface ConceptPhrase {
  concept: string;
  sequence: string[];
}

/**
 * Phrases by their first word, in two kinds. Most are matched on the words a text keeps once its stopwords
 * are gone, so that "list assets" meets "list of assets". A phrase whose meaning rests on a stopword ("in
 * force", "own name", "know how", "at work") is matched on every word, stopwords included: without them it
 * would fire on each bare "force", "name", "know" or "work".
 */
interface CompiledThesaurus {
  spanning: Map<string, ConceptPhrase[]>;
  exact: Map<string, ConceptPhrase[]>;
}

function compileThesaurus(thesaurus: Record<string, string[]>): CompiledThesaurus {
  const compiled: CompiledThesaurus = { spanning: new Map(), exact: new Map() };
  for (const [concept, phrases] of Object.entries(thesaurus)) {
    for (const phrase of phrases) {
      const kept = words(phrase).map(stem);
      if (kept.length === 0) continue;
      const full = tokens(phrase).map(stem);
      const [byFirstWord, sequence] =
        full.length > kept.length ? [compiled.exact, full] : [compiled.spanning, kept];
      const list = byFirstWord.get(sequence[0]) ?? [];
      list.push({ concept, sequence });
      byFirstWord.set(sequence[0], list);
    }
  }
  return compiled;
}

/**
 * The compliance thesaurus with the everyday words of each concept merged in, read once from
 * `fixtures/search-thesaurus.json` (written from `fixtures/build/search-thesaurus.content.ts`).
 */
export const SEARCH_THESAURUS: Record<string, string[]> = (() => {
  const { compliance, everyday } = JSON.parse(
    readFileSync(new URL('search-thesaurus.json', DEFAULT_FIXTURES_DIR), 'utf8'),
  ) as Record<'compliance' | 'everyday', Record<string, string[]>>;
  const merged: Record<string, string[]> = {};
  for (const source of [compliance, everyday]) {
    for (const [concept, phrases] of Object.entries(source))
      merged[concept] = [...(merged[concept] ?? []), ...phrases];
  }
  return merged;
})();

const COMPILED = compileThesaurus(SEARCH_THESAURUS);

function matchPhrases(tokens: readonly string[], byFirstWord: Map<string, ConceptPhrase[]>): string[] {
  const found: string[] = [];
  tokens.forEach((token, index) => {
    for (const phrase of byFirstWord.get(token) ?? []) {
      if (phrase.sequence.every((part, offset) => tokens[index + offset] === part))
        found.push(phrase.concept);
    }
  });
  return found;
}

/** Concepts whose phrases occur in a text (see `CompiledThesaurus` for how each kind is matched). */
export function concepts(text: string, compiled = COMPILED): string[] {
  // The text is normalised once; both kinds of phrase are matched on its stems, with and without stopwords.
  const all = tokens(text);
  const stems = all.map(stem);
  const kept = stems.filter((_, index) => !STOPWORDS.has(all[index]));
  return [...matchPhrases(kept, compiled.spanning), ...matchPhrases(stems, compiled.exact)];
}

/** Character n-grams of a word with boundary marks (`^log$` → `^lo`, `log`, `og$`, ...). */
export function charNgrams(word: string, sizes: readonly number[] = [3, 4]): string[] {
  const marked = `^${word}$`;
  const grams: string[] = [];
  for (const size of sizes) {
    for (let i = 0; i + size <= marked.length; i++) grams.push(marked.slice(i, i + size));
  }
  return grams;
}

export interface TextFeatures {
  words: string[];
  concepts: string[];
  ngrams: string[];
}

/** All features of a text; `emphasis` repeats the words of a title so they weigh more. */
export function textFeatures(text: string, emphasis = ''): TextFeatures {
  const body = words(`${emphasis} ${text}`);
  const emphasised = words(emphasis).map(stem);
  return {
    words: [...body.map(stem), ...emphasised],
    concepts: [...concepts(`${emphasis} ${text}`), ...concepts(emphasis)],
    ngrams: body.flatMap((word) => charNgrams(word)),
  };
}
