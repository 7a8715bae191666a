import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createOrgUnitBodySchema,
  orgUnitParamsSchema,
  orgUnitSchema,
  orgUnitSummaryQuerySchema,
  orgUnitSummarySchema,
  orgUnitTreeSchema,
  updateOrgUnitBodySchema,
} from '../../shared/api/org-units.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import {
  closeOrgUnit,
  createOrgUnit,
  getOrgUnit,
  listOrgUnits,
  updateOrgUnit,
} from '../services/org-units.ts';
import { orgUnitSummary, topOrgUnitSummary } from '../services/unit-summary.ts';
import { etag, ifMatchHeaders, ifMatchVersion, requiredIfMatchVersion } from './if-match.ts';
import { errorResponses } from './responses.ts';

const tags = ['org-units'];

export function orgUnitRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/org-units',
      {
        config: { access: 'orgUnit.view' },
        schema: {
          summary: 'The tree of organisation units, each unit after its parent',
          tags,
          response: { 200: orgUnitTreeSchema, ...errorResponses(401, 403) },
        },
      },
      async (request) => listOrgUnits(context, scopeOf(request)),
    );

    app.get(
      '/api/org-units/:id',
      {
        config: { access: 'orgUnit.view' },
        schema: {
          summary: 'One organisation unit; its ETag is the version a change names',
          tags,
          params: orgUnitParamsSchema,
          response: { 200: orgUnitSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const unit = await getOrgUnit(context, scopeOf(request), request.params.id);
        void reply.header('etag', etag(unit.version));
        return unit;
      },
    );

    // A static path: Fastify's router prefers it to /api/org-units/:id whatever the order.
    app.get(
      '/api/org-units/summary',
      {
        config: { access: 'orgUnit.summary' },
        schema: {
          summary:
            'The roll-up at the top of your scope: of the one unit nearest the top that you work in, or of each such unit when you work in several branches (unit null)',
          description:
            'As GET /api/org-units/{id}/summary, for the unit the District page opens with.',
          tags,
          querystring: orgUnitSummaryQuerySchema,
          response: { 200: orgUnitSummarySchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => topOrgUnitSummary(context, scopeOf(request), request.query),
    );

    app.get(
      '/api/org-units/:id/summary',
      {
        config: { access: 'orgUnit.summary' },
        schema: {
          summary:
            "A unit's roll-up: per unit directly below it, the live assessments, High and Moderate per condition, Awaiting Review, overdue follow-ups and the share of agreed reviews",
          description:
            "from and to keep the assessments made on those days in the clinic's zone, as the dashboard does; Awaiting Review and overdue follow-ups are as they stand now. Only units within your scope are counted; a unit outside it is answered 404 as if it did not exist.",
          tags,
          params: orgUnitParamsSchema,
          querystring: orgUnitSummaryQuerySchema,
          response: { 200: orgUnitSummarySchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        orgUnitSummary(context, scopeOf(request), request.params.id, request.query),
    );

    app.post(
      '/api/org-units',
      {
        config: { access: 'orgUnit.manage' },
        schema: {
          summary: 'Make an organisation unit (audited)',
          description:
            'The code is unique without regard to case; parentId null makes a unit at the top. A closed parent is refused.',
          tags,
          body: createOrgUnitBodySchema,
          response: { 201: orgUnitSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const unit = await createOrgUnit(context, requesterOf(request), request.body);
        void reply.header('etag', etag(unit.version));
        return reply.status(201).send(unit);
      },
    );

    app.put(
      '/api/org-units/:id',
      {
        config: { access: 'orgUnit.manage' },
        schema: {
          summary:
            "Change a unit's code, name and parent; If-Match must carry the version it was based on",
          description: 'A parent that is the unit itself or below it is refused (409, parentId).',
          tags,
          params: orgUnitParamsSchema,
          headers: ifMatchHeaders,
          body: updateOrgUnitBodySchema,
          response: { 200: orgUnitSchema, ...errorResponses(400, 401, 403, 404, 409, 412, 428) },
        },
      },
      async (request, reply) => {
        const unit = await updateOrgUnit(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
          request.body,
        );
        void reply.header('etag', etag(unit.version));
        return unit;
      },
    );

    app.post(
      '/api/org-units/:id/close',
      {
        config: { access: 'orgUnit.manage' },
        schema: {
          summary: 'Close a unit: it takes no new patients, assessments or units (audited)',
          description:
            'Its records stay, and so do the units below it. With If-Match, only at that version.',
          tags,
          params: orgUnitParamsSchema,
          headers: ifMatchHeaders,
          response: { 200: orgUnitSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => {
        const unit = await closeOrgUnit(
          context,
          requesterOf(request),
          request.params.id,
          ifMatchVersion(request),
        );
        void reply.header('etag', etag(unit.version));
        return unit;
      },
    );
  };
}
