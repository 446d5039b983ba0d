/**
 * The impact-assessment templates comply ships: an assessment's questions, grouped in sections, and the
 * requirements an approved assessment is evidence for. The questions are our own wording of what each
 * instrument asks an organization to consider; none is the text of a standard or a regulation.
 *
 * A template is versioned: a change that adds, removes or changes the meaning of a question raises
 * `version`. An assessment records the version it was written against; a revision moves to the current one,
 * keeping only the answers to questions the current version still asks.
 */
import type { Static } from 'typebox';
import { ISO_42001 } from '../../shared/vocabulary.js';
import type { QuestionKind, QuestionSchema, TemplateSchema } from './impact-assessments.schemas.js';

export type Template = Static<typeof TemplateSchema>;
export type Question = Static<typeof QuestionSchema>;

const text = (questionId: string, prompt: string, required = true, help?: string): Question => ({
  questionId,
  text: prompt,
  ...(help ? { help } : {}),
  kind: 'text',
  required,
});

const pick = (
  kind: Exclude<QuestionKind, 'text'>,
  questionId: string,
  prompt: string,
  options: string[],
  required = true,
): Question => ({ questionId, text: prompt, kind, options, required });

const choice = (questionId: string, prompt: string, options: string[], required = true) =>
  pick('choice', questionId, prompt, options, required);
const multi = (questionId: string, prompt: string, options: string[], required = true) =>
  pick('multi', questionId, prompt, options, required);
const scale = (questionId: string, prompt: string, points: string[], required = true) =>
  pick('scale', questionId, prompt, points, required);

const AFFECTED_PARTIES = [
  'people who operate or use the system',
  'people the outputs are about or decide on',
  'children',
  'other people in a vulnerable position',
  'employees of the organization',
  'third parties outside the intended use',
  'society at large',
  'the environment',
];

const FUNDAMENTAL_RIGHTS = [
  'human dignity',
  'equality and non-discrimination',
  'respect for private and family life',
  'protection of personal data',
  'freedom of expression and information',
  'freedom of thought, conscience and religion',
  'freedom of assembly and association',
  'rights of the child',
  'rights of older people',
  'integration of people with disabilities',
  'fair and just working conditions',
  'social security and social assistance',
  'access to health care',
  'right to education',
  'consumer protection',
  'an effective remedy and a fair trial',
  'presumption of innocence and the right of defence',
  'right to asylum and protection in removal',
  'freedom to conduct a business',
];

/**
 * The AI system impact assessment of ISO/IEC 42001 (6.1.4, 8.4, Annex A.5), laid out along the elements
 * ISO/IEC 42005 describes: the system and its use, its data, who it reaches, what may follow for them and
 * for society, what is done about it, and how the assessment is kept and reviewed.
 */
const ISO_42001_AIIA: Template = {
  templateId: 'iso-42001-aiia',
  name: 'AI system impact assessment (ISO/IEC 42001)',
  description:
    'Assesses what an AI system may do to individuals, groups and society across its life cycle, including ' +
    'foreseeable misuse, and what is done about it. Structured after the elements of ISO/IEC 42005; an ' +
    'approved assessment is evidence for ISO/IEC 42001 A.5.2 to A.5.5, 6.1.4 and 8.4.',
  version: 1,
  sections: [
    {
      sectionId: 'system',
      title: 'The system and its use',
      questions: [
        text(
          'intended-use',
          'What is the system meant to do, for whom, and in which setting?',
          true,
          'Name the decisions or tasks it supports and the people who rely on its outputs.',
        ),
        text(
          'functionality',
          'How does the system arrive at its outputs: which kind of model or technique, and which inputs?',
        ),
        choice('autonomy', 'How much of the outcome does the system settle on its own?', [
          'it only informs a person',
          'a person decides with its recommendation',
          'it decides and a person reviews',
          'it decides without a person involved',
        ]),
        text(
          'deployment',
          'Where, by whom and at what scale will it be operated (countries, sectors, number of uses)?',
        ),
      ],
    },
    {
      sectionId: 'data',
      title: 'Data',
      questions: [
        text(
          'data-sources',
          'Which data is the system built from and which does it take in when running, and where does each come from?',
        ),
        choice('personal-data', 'Does it process information about identifiable people?', [
          'no',
          'yes, ordinary personal data',
          'yes, including special categories (health, biometrics, beliefs, …)',
        ]),
        text(
          'data-quality',
          'How are the data checked for quality, relevance and representativeness, and which gaps are known?',
          false,
        ),
      ],
    },
    {
      sectionId: 'affected',
      title: 'Who is affected',
      questions: [
        multi('parties', 'Who can the system affect, directly or indirectly?', AFFECTED_PARTIES),
        text(
          'vulnerable',
          'Which of them are less able to notice, contest or avoid its effects, and why?',
          false,
        ),
      ],
    },
    {
      sectionId: 'impacts',
      title: 'Foreseeable impacts',
      description:
        'Record each significant impact in the impacts list as well, with its likelihood and severity.',
      questions: [
        text('benefits', 'What good is the system expected to do, and for whom?'),
        text(
          'individual-harms',
          'What could go wrong for individuals or groups: unfair treatment, loss of opportunity, safety, privacy, autonomy?',
        ),
        text(
          'societal-harms',
          'What could it do to society or the environment: public trust, democratic processes, labour, energy and resources?',
        ),
        text(
          'misuse',
          'How could it be used beyond its intended purpose, by mistake or on purpose, and what would follow?',
        ),
        text(
          'failures',
          'What happens to the people affected when it is wrong, biased or unavailable?',
          false,
        ),
        scale('overall-severity', 'How serious is the worst impact that can reasonably be expected?', [
          'negligible',
          'minor',
          'moderate',
          'major',
          'critical',
        ]),
      ],
    },
    {
      sectionId: 'measures',
      title: 'Measures',
      questions: [
        text('mitigations', 'Which measures prevent or reduce the impacts found, and who owns each?'),
        text('oversight', 'How do people oversee the system, and how can they stop or override it?'),
        choice('transparency', 'Are the people affected told that an AI system is involved?', [
          'yes, before it is used on them',
          'yes, when they ask',
          'no',
          'not applicable',
        ]),
        choice('residual', 'With these measures, is what remains acceptable to the organization?', [
          'yes',
          'yes, under conditions stated in the mitigations',
          'no',
        ]),
      ],
    },
    {
      sectionId: 'review',
      title: 'Documentation and review',
      questions: [
        text(
          'triggers',
          'Which changes to the system, its data or its use should make the organization assess it again?',
          false,
        ),
        text('retention', 'Where is this assessment kept, and for how long?', false),
      ],
    },
  ],
  evidenceFor: [
    { frameworkId: ISO_42001, requirementId: 'A.5.2' },
    { frameworkId: ISO_42001, requirementId: 'A.5.3' },
    { frameworkId: ISO_42001, requirementId: 'A.5.4' },
    { frameworkId: ISO_42001, requirementId: 'A.5.5' },
    { frameworkId: 'iso-42001-clauses', requirementId: '6.1.4' },
    { frameworkId: 'iso-42001-clauses', requirementId: '8.4' },
  ],
};

/** The fundamental-rights impact assessment a deployer of a high-risk AI system makes (EU AI Act Art. 27(1)). */
const EU_AI_ACT_FRIA: Template = {
  templateId: 'eu-ai-act-fria',
  name: 'Fundamental rights impact assessment (EU AI Act)',
  description:
    'What a deployer of a high-risk AI system works out before first use about its effect on the fundamental ' +
    'rights of the people it reaches, following the elements listed in Art. 27(1) of the EU AI Act. An ' +
    'approved assessment is evidence for Art. 27.',
  version: 1,
  sections: [
    {
      sectionId: 'applicability',
      title: 'Why the assessment is made',
      questions: [
        choice('deployer', 'Which describes the organization deploying the system?', [
          'a public authority or body',
          'a private organization providing a public service',
          'a deployer assessing the creditworthiness of people or their credit score',
          'a deployer pricing or assessing risk for life or health insurance',
          'none of these: the assessment is made voluntarily',
        ]),
        text('first-use', 'When is the system to be used for the first time?', false),
      ],
    },
    {
      sectionId: 'process',
      title: 'How the system is used',
      questions: [
        text(
          'process',
          'In which of your processes will the system be used, and how does that use match the purpose the provider intended?',
        ),
        text('period', 'For how long will the system be in use?'),
        choice('frequency', 'How often will it be used?', [
          'continuously',
          'several times a day',
          'daily',
          'weekly',
          'occasionally',
        ]),
      ],
    },
    {
      sectionId: 'people',
      title: 'People affected',
      questions: [
        text(
          'categories',
          'Which categories of people and groups are likely to be affected in this particular use?',
        ),
        choice(
          'reach',
          'About how many people will it affect each year?',
          ['fewer than 100', '100 to 10,000', '10,000 to 1 million', 'more than 1 million'],
          false,
        ),
      ],
    },
    {
      sectionId: 'risks',
      title: 'Risks of harm',
      questions: [
        multi('rights', 'Which fundamental rights could this use affect?', FUNDAMENTAL_RIGHTS),
        text(
          'harms',
          'Which specific harms could reach those people, taking into account what the provider says about the system in its instructions for use?',
        ),
        choice('provider-information', "Did the provider's instructions for use inform this assessment?", [
          'yes',
          'partly',
          'no, they were not available',
        ]),
      ],
    },
    {
      sectionId: 'oversight',
      title: 'Human oversight',
      questions: [
        text(
          'oversight',
          'How is human oversight carried out, following the instructions for use: who watches, with what authority and training?',
        ),
      ],
    },
    {
      sectionId: 'response',
      title: 'If the risks materialise',
      questions: [
        text('response', 'What will be done if one of these harms occurs?'),
        text('governance', 'Which internal governance arrangements apply: who decides, who is told?'),
        text('complaints', 'How can the people affected complain or seek redress, and how is that handled?'),
      ],
    },
    {
      sectionId: 'notification',
      title: 'Notification',
      questions: [
        choice('authority', 'Has the market surveillance authority been told the results?', [
          'yes',
          'not yet: before first use',
          'an exemption applies',
        ]),
        text(
          'dpia',
          'Which data protection impact assessment, if any, covers part of this, and what does this assessment add to it?',
          false,
        ),
      ],
    },
  ],
  evidenceFor: [{ frameworkId: 'eu-ai-act', requirementId: 'Art. 27' }],
};

/** The data protection impact assessment a controller makes before high-risk processing (GDPR Art. 35(7)). */
const GDPR_DPIA: Template = {
  templateId: 'gdpr-dpia',
  name: 'Data protection impact assessment (GDPR)',
  description:
    'What a controller works out before processing that is likely to put the rights and freedoms of people ' +
    'at high risk, following the content Art. 35(7) of the GDPR asks for: the processing, its necessity and ' +
    'proportionality, the risks, and the measures. An approved assessment is evidence for Art. 35.',
  version: 1,
  sections: [
    {
      sectionId: 'processing',
      title: 'The processing',
      questions: [
        text('description', 'What processing is planned: which operations, with which systems, by whom?'),
        text('purposes', 'For which purposes is the data processed?'),
        choice('lawful-basis', 'On which lawful basis does the processing rest?', [
          'consent',
          'performance of a contract',
          'a legal obligation',
          'vital interests',
          'a task in the public interest or official authority',
          'legitimate interests',
        ]),
        text(
          'legitimate-interest',
          'If it rests on legitimate interests: which interests, and why do they outweigh those of the people concerned?',
          false,
        ),
        multi('data-categories', 'Which kinds of personal data are processed?', [
          'identification and contact details',
          'financial information',
          'location',
          'online identifiers and behaviour',
          'employment and education',
          'health',
          'biometric data used to identify someone',
          'genetic data',
          'racial or ethnic origin',
          'political opinions, religious or philosophical beliefs',
          'trade-union membership',
          'sex life or sexual orientation',
          'criminal convictions and offences',
          'data about children',
        ]),
        text('subjects', 'Whose data is it, and roughly how many people?'),
        text('recipients', 'Who receives the data, inside and outside the organization?', false),
        text('retention', 'How long is each kind of data kept, and what happens to it then?'),
        choice('transfers', 'Does data leave the EEA, and on what footing?', [
          'no',
          'yes, to a country with an adequacy decision',
          'yes, under appropriate safeguards',
          'yes, under a derogation for a specific situation',
        ]),
      ],
    },
    {
      sectionId: 'necessity',
      title: 'Necessity and proportionality',
      questions: [
        text(
          'necessity',
          'Why is this processing needed for the purposes, and could less intrusive means achieve them?',
        ),
        text(
          'minimisation',
          'How is the data limited to what the purposes need, in amount, detail and retention?',
        ),
        text(
          'information',
          'How are people informed, and how can they exercise their rights (access, objection, erasure)?',
        ),
      ],
    },
    {
      sectionId: 'risks',
      title: 'Risks to the people concerned',
      questions: [
        text(
          'risks',
          'What could the processing do to the rights and freedoms of the people concerned: discrimination, loss of control, financial loss, reputational damage, …?',
        ),
        choice(
          'automated-decisions',
          'Does the processing decide about people without human involvement, with legal or similarly significant effects?',
          ['no', 'yes, with human review on request', 'yes'],
        ),
        scale('likelihood', 'How likely is the most serious of these harms, before the measures?', [
          'remote',
          'possible',
          'likely',
          'almost certain',
        ]),
        scale('severity', 'How severe would it be for the people concerned?', [
          'minimal',
          'limited',
          'significant',
          'very serious or irreversible',
        ]),
      ],
    },
    {
      sectionId: 'measures',
      title: 'Measures',
      questions: [
        text('safeguards', 'Which safeguards address each risk?'),
        text('security', 'Which technical and organizational security measures protect the data?'),
        text(
          'accountability',
          'How will the organization show that the processing complies (records, audits, reviews)?',
          false,
        ),
      ],
    },
    {
      sectionId: 'consultation',
      title: 'Advice and consultation',
      questions: [
        text(
          'dpo-advice',
          'What did the data protection officer advise, and how was the advice followed?',
          false,
        ),
        text(
          'subject-views',
          'Were the people concerned or their representatives asked for their views? What did they say?',
          false,
        ),
        choice('residual-high', 'Does a high risk remain after the measures?', [
          'no',
          'yes: the supervisory authority must be consulted before processing starts',
        ]),
      ],
    },
  ],
  evidenceFor: [{ frameworkId: 'gdpr', requirementId: 'Art. 35' }],
};

export const TEMPLATES: readonly Template[] = [ISO_42001_AIIA, EU_AI_ACT_FRIA, GDPR_DPIA];

const BY_ID = new Map(TEMPLATES.map((template) => [template.templateId, template]));

/** Each template's questions by id (the templates are constants: built once). */
const QUESTIONS = new Map(
  TEMPLATES.map((template) => [
    template.templateId,
    new Map(template.sections.flatMap((section) => section.questions.map((q) => [q.questionId, q] as const))),
  ]),
);

export const templateOf = (templateId: string): Template | undefined => BY_ID.get(templateId);

/** Every question of a template, by id. */
export const questionsOf = (template: Template): ReadonlyMap<string, Question> =>
  QUESTIONS.get(template.templateId) ?? new Map();
