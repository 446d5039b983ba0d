import path from 'node:path';
import { escapeMarkdownInline } from '../../shared/markdown.js';
import { lineOf } from './policy.js';
import type { ReportFormat } from './report-formats.js';
import { RULE_DESCRIPTIONS, RULE_IDS, type RuleResult } from './rules.js';

/** How `comply check` writes its verdict: a short summary for people, four formats for machines. */

export { REPORT_FORMATS, type ReportFormat } from './report-formats.js';

export interface CheckReport {
  orgId: string;
  url: string;
  checkedAt: string;
  /** Milliseconds the evaluation took. */
  durationMs: number;
  results: RuleResult[];
  /** The policy file the rules came from, if any (flags add rules without one). */
  policy?: { file: string; text: string };
}

const passedCount = (report: CheckReport) => report.results.filter((r) => r.passed).length;
const verdict = (report: CheckReport) => report.results.every((r) => r.passed);

export function textReport(report: CheckReport): string {
  const lines = report.results.flatMap((r) => [
    `${r.passed ? 'PASS' : 'FAIL'}  ${r.name}: ${r.actual}${r.passed ? '' : ` (expected ${r.expected})`}`,
    ...r.failures.slice(0, 10).map((f) => `        ${f.length > 110 ? `${f.slice(0, 109)}…` : f}`),
    ...(r.failures.length > 10 ? [`        … and ${r.failures.length - 10} more`] : []),
  ]);
  const failed = report.results.length - passedCount(report);
  lines.push(
    '',
    failed
      ? `comply check ${report.orgId}: ${failed} of ${report.results.length} rules failed`
      : `comply check ${report.orgId}: all ${report.results.length} rules hold`,
  );
  return `${lines.join('\n')}\n`;
}

export function jsonReport(report: CheckReport): string {
  const passed = passedCount(report);
  return `${JSON.stringify(
    {
      orgId: report.orgId,
      passed: verdict(report),
      summary: { rules: report.results.length, passed, failed: report.results.length - passed },
      checkedAt: report.checkedAt,
      policy: report.policy?.file ?? null,
      results: report.results.map(({ path: _path, ...rest }) => rest),
    },
    null,
    2,
  )}\n`;
}

// XML 1.0 allows neither most C0 controls nor lone surrogates; they are dropped rather than escaped.
const xml = (text: string) =>
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** JUnit XML: each rule a test case, so every CI system lists the rules and shows what failed. */
export function junitReport(report: CheckReport): string {
  const failures = report.results.length - passedCount(report);
  const seconds = (report.durationMs / 1000).toFixed(3);
  const cases = report.results.map((r) => {
    const open = `    <testcase classname="comply.${r.rule}" name="${xml(r.name)}" time="0">`;
    if (r.passed)
      return `${open}\n      <system-out>${xml(`${r.name}: ${r.actual}`)}</system-out>\n    </testcase>`;
    const body = [`expected ${r.expected}, actual ${r.actual}`, ...r.failures].join('\n');
    return `${open}\n      <failure type="${r.rule}" message="${xml(`${r.name}: ${r.actual} (expected ${r.expected})`)}">${xml(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="comply check" tests="${report.results.length}" failures="${failures}" errors="0" time="${seconds}">`,
    `  <testsuite name="comply check ${xml(report.orgId)}" tests="${report.results.length}" failures="${failures}" errors="0" skipped="0" timestamp="${report.checkedAt.slice(0, 19)}" time="${seconds}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * SARIF 2.1.0: one reporting descriptor per rule kind, one result per rule checked (failures at level
 * error, holds as kind pass), located in the policy file when the rule came from one.
 */
export function sarifReport(report: CheckReport): string {
  const policyUri = report.policy
    ? path.relative(process.cwd(), report.policy.file).split(path.sep).join('/')
    : null;
  const located = (r: RuleResult) => {
    const line = policyUri && report.policy ? lineOf(report.policy.text, r.path) : undefined;
    if (!policyUri || line === undefined) return {};
    return {
      locations: [
        { physicalLocation: { artifactLocation: { uri: policyUri }, region: { startLine: line } } },
      ],
    };
  };
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'comply',
            rules: RULE_IDS.map((id) => ({
              id,
              name: id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
              shortDescription: { text: RULE_DESCRIPTIONS[id] },
              defaultConfiguration: { level: 'error' },
            })),
          },
        },
        automationDetails: { id: `comply-check/${report.orgId}/` },
        invocations: [
          {
            executionSuccessful: true,
            endTimeUtc: report.checkedAt,
            properties: { orgId: report.orgId, daemon: report.url },
          },
        ],
        results: report.results.map((r) => ({
          ruleId: r.rule,
          ruleIndex: RULE_IDS.indexOf(r.rule),
          kind: r.passed ? 'pass' : 'fail',
          level: r.passed ? 'none' : 'error',
          message: {
            text: r.passed
              ? `${r.name}: ${r.actual}`
              : [`${r.name}: ${r.actual} (expected ${r.expected})`, ...r.failures].join('\n'),
          },
          ...located(r),
          properties: { expected: r.expected, actual: r.actual },
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A Markdown summary fit for a pull-request comment or a CI job summary. */
export function markdownReport(report: CheckReport): string {
  const failed = report.results.length - passedCount(report);
  // Every piece sits after a table pipe, a list marker or other text, so inline escaping suffices.
  const cell = (text: string) => escapeMarkdownInline(text.replace(/\s+/g, ' ').trim());
  const lines = [
    `### comply check: ${cell(report.orgId)} ${failed ? `❌ ${failed} of ${report.results.length} rules failed` : `✅ all ${report.results.length} rules hold`}`,
    '',
    '| Result | Rule | Expected | Actual |',
    '| --- | --- | --- | --- |',
    ...report.results.map(
      (r) =>
        `| ${r.passed ? '✅ pass' : '❌ fail'} | ${cell(r.name)} | ${cell(r.expected)} | ${cell(r.actual)} |`,
    ),
  ];
  const failing = report.results.filter((r) => !r.passed && r.failures.length);
  for (const r of failing) {
    lines.push('', `<details><summary>${cell(r.name)}: ${r.failures.length} item(s)</summary>`, '');
    lines.push(...r.failures.slice(0, 100).map((f) => `- ${cell(f)}`));
    if (r.failures.length > 100) lines.push(`- … and ${r.failures.length - 100} more`);
    lines.push('', '</details>');
  }
  lines.push(
    '',
    `<sub>${cell(`Checked ${report.checkedAt}${report.policy ? ` against ${path.basename(report.policy.file)}` : ''}.`)}</sub>`,
    '',
  );
  return lines.join('\n');
}

export const REPORTERS: Record<ReportFormat, (report: CheckReport) => string> = {
  json: jsonReport,
  junit: junitReport,
  sarif: sarifReport,
  markdown: markdownReport,
};
