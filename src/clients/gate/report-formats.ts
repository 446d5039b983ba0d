/**
 * The formats `comply check` writes its report in, apart from the reporters (reports.ts) so that the CLI
 * can list them in its help without loading the gate.
 */
export const REPORT_FORMATS = ['json', 'junit', 'sarif', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
