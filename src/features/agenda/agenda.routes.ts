import type { FeatureRoutes } from '../../context.js';
import { invalidField } from '../../platform/errors.js';
import { parseInstant } from '../../platform/time.js';
import { errorResponses } from '../../shared/schemas.js';
import { sendRecordReport } from '../cte/report-cache.js';
import { AgendaParams, AgendaQuery, AgendaSchema } from './agenda.schemas.js';
import { agendaOf, filterAgenda } from './agenda.service.js';

/** What is due in an org (under the org scope). */
export const agendaRoutes: FeatureRoutes = async function agendaRoutes(app, { ctx }) {
  app.get(
    '/orgs/:orgId/due',
    {
      schema: {
        tags: ['due'],
        summary: 'What is due: every dated obligation of the org, soonest first',
        description:
          'Computed from the records that hold the dates: evidence expiry (documents and links; attestations are ' +
          'renewed by their sidecars), risk treatment due dates (while treating) and review dates, acceptance ' +
          'expiry, impact assessment reviews, document reviews, open findings’ due dates and management-review ' +
          'decisions. `overdue` items are past their date.',
        params: AgendaParams,
        querystring: AgendaQuery,
        response: { 200: AgendaSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      const { from, to, owner, kind, overdue, limit = 100, offset = 0 } = request.query;
      const filter = {
        from: from === undefined ? undefined : parseInstant(from, 'querystring.from'),
        to: to === undefined ? undefined : parseInstant(to, 'querystring.to'),
        owner,
        kind,
        overdue,
      };
      if (filter.from && filter.to && filter.to < filter.from)
        throw invalidField('querystring.to', 'must not be before from');
      const key = `due?${new URLSearchParams(request.query as Record<string, string>)}`;
      return sendRecordReport(ctx, reply, orgId, key, async (analysis) => {
        const { items, validUntil } = await agendaOf(ctx.db.em(), orgId, analysis);
        const matching = filterAgenda(items, filter);
        return {
          value: {
            orgId,
            items: matching.slice(offset, offset + limit),
            total: matching.length,
            limit,
            offset,
          },
          validUntil,
        };
      });
    },
  );
};
