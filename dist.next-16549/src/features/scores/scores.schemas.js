import { Type } from 'typebox';
import { CountsSchema, InstantString, IntervalSchema, Score, Timestamp } from '../../shared/schemas.js';
/** Shapes of scores and their history, for every framework (the ISO/IEC 42001 routes reuse them). */
export const HistoryQuery = Type.Object({
    from: Type.Optional(InstantString('Start; default 29 days before today (UTC)')),
    to: Type.Optional(InstantString('End; default now')),
    interval: Type.Optional(IntervalSchema),
});
export const HistoryPointSchema = Type.Object({
    periodStart: Timestamp,
    periodEnd: Timestamp,
    asOf: Timestamp,
    score: Score,
    counts: CountsSchema,
});
export const HistorySchema = Type.Object({
    orgId: Type.String(),
    interval: IntervalSchema,
    from: Timestamp,
    to: Timestamp,
    points: Type.Array(HistoryPointSchema, {
        description: 'One point per period, oldest first: the state as of `asOf`, which is the exclusive `periodEnd` for ' +
            'finished periods and now for the current one. Periods before the organization existed have ' +
            'zero counts and a null score.',
    }),
});
export const DomainScoreSchema = Type.Object({
    domain: Type.String(),
    domainTitle: Type.String(),
    score: Score,
    controlCount: Type.Integer(),
    counts: CountsSchema,
});
//# sourceMappingURL=scores.schemas.js.map