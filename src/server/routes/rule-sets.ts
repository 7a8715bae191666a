import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activateRuleSetBodySchema,
  ruleSetListSchema,
  ruleSetParamsSchema,
  ruleSetSchema,
  ruleSetSummarySchema,
} from '../../shared/api/rule-sets.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { activateRuleSet, listRuleSets, ruleSetData } from '../services/rule-sets.ts';
import { errorResponses } from './responses.ts';

const tags = ['rule-sets'];

export function ruleSetRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/rule-sets',
      {
        config: { access: 'ruleSet.view' },
        schema: {
          summary: 'Every rule set version the server knows, the default first, the active marked',
          description:
            'activeSince is when the activation that made a version active was recorded; null for the default when none was.',
          tags,
          response: { 200: ruleSetListSchema, ...errorResponses(401, 403) },
        },
      },
      async () => listRuleSets(context),
    );

    app.get(
      '/api/rule-sets/:version',
      {
        config: { access: 'ruleSet.view' },
        schema: {
          summary: 'A whole rule set: every weight, threshold and cap of the version',
          tags,
          params: ruleSetParamsSchema,
          response: { 200: ruleSetSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => ruleSetData(request.params.version),
    );

    app.put(
      '/api/rule-sets/active',
      {
        config: { access: 'ruleSet.activate' },
        schema: {
          summary: 'Make a version the one new saves score with (audited)',
          description:
            'Stored results keep the version they were scored with until their assessment is updated.',
          tags,
          body: activateRuleSetBodySchema,
          response: { 200: ruleSetSummarySchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => activateRuleSet(context, requesterOf(request), request.body.version),
    );
  };
}
