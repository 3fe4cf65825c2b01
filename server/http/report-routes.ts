/**
 * The reporting service (spec §7.6): GET /appcms/v2/reports/<report>?from&to&granularity&network
 * &device|country|content|plan&by&currency&compare. Dashboard 360 read or better on the caller's
 * own site; a site outside ANALYTICS_ALLOWED_SITES (when that list is set) gets 403 whatever its
 * roles. Bad parameters answer 400 naming the parameter. Answers come from the daily rollups
 * (server/domain/reports/build.ts); real-time reports read the last minutes of live sessions.
 */
import { AREAS } from '../../common/constants';
import type { ApiFailure } from '../../common/contract';
import { REPORT_NAMES, REPORTS_PATH, isReportName, type ReportAnswer } from '../../common/reports';
import { siteDayOf } from '../../common/site-day';
import { applyAllowedSites, canContinue } from '../../common/roles';
import { forbidden, notFound } from '../domain/errors';
import { parseReportParams, reportParamError } from '../domain/reports/params';
import { authContextOf, requireAuth } from './auth-hooks';
import { REPORT_RESPONSE, answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import './types';

const text = { type: 'string', maxLength: 200 } as const;

export const reportRoutes: RoutePlugin = async (app) => {
  // Every report: a session and the management key; the role is checked per site below.
  app.addHook('onRequest', requireAuth);

  app.get(`${REPORTS_PATH}/:report`, {
    schema: {
      params: { type: 'object', required: ['report'], properties: { report: { type: 'string', maxLength: 64 } } },
      // Every parameter is checked by parseReportParams, which also refuses unknown ones by name.
      querystring: { type: 'object', additionalProperties: { anyOf: [text, { type: 'array', items: text }] } },
      response: answers({ 200: REPORT_RESPONSE }),
    },
  }, async (request, reply): Promise<ReportAnswer | ApiFailure> => {
    const { user, site } = authContextOf(request);
    const roles = applyAllowedSites(user.roles, site.siteInternalName, app.services.config.runtime.analyticsAllowedSites);
    if (!canContinue(roles, AREAS.dashboard360)) throw forbidden();
    const { report } = request.params;
    if (!isReportName(report)) throw notFound(`report: unknown report ${report}; the reports are ${REPORT_NAMES.join(', ')}`);
    const now = new Date();
    // Dates are the site's (issue 38): "today" is the site's today, in its zone.
    const params = parseReportParams(report, request.query, siteDayOf(now, site.defaultTimezone));
    const networkId = params.network ? await app.services.reports.networkIdOf(site.id, params.network) : null;
    if (params.network && !networkId) throw reportParamError(`network: no network ${params.network} on this site`);
    const answer = await app.services.reports.build(report, { siteId: site.id, networkId, params, now });
    reply.header('cache-control', 'private, max-age=0');
    return { success: true, ...answer };
  });
};
