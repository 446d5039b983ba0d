import { Option } from 'commander';
import { score as percent } from '../../api-client/format.js';
import { sparkline } from '../ui/sparkline.js';
/** How `comply score` and `comply history` show a score: its trend, its counts and its domains. */
/** "▁▂▃▅ 9.5%": the trend, then where it ends. */
export function trend(history) {
    const scores = history.points.map((point) => point.score);
    return `${sparkline(scores)} ${percent(scores.at(-1) ?? null)}`;
}
/** The per-domain table of a score: ISO/IEC 42001 domains, or those of any framework that has them. */
export function domainTable(byDomain, countLabel) {
    return {
        columns: ['DOMAIN', 'SCORE', countLabel, 'DONE', 'ACTIVE', 'OPEN', 'N/A', 'TITLE'],
        rows: byDomain.map((domain) => [
            domain.domain,
            percent(domain.score),
            domain.controlCount,
            domain.counts.implemented,
            domain.counts.inProgress,
            domain.counts.notStarted,
            domain.counts.notApplicable,
            domain.domainTitle,
        ]),
    };
}
export const countsText = ({ counts }) => `${counts.implemented} implemented, ${counts.inProgress} in progress, ` +
    `${counts.notStarted} not started, ${counts.notApplicable} not applicable`;
/** `--framework`: the score or history of another framework than ISO/IEC 42001. */
export const frameworkOption = (what) => new Option('--framework <frameworkId>', `${what} of this framework (e.g. eu-ai-act, nist-ai-rmf, an imported catalog) instead of ISO/IEC 42001`);
//# sourceMappingURL=score-view.js.map