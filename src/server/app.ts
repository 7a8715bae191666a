import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { DatabaseReplacedError } from './db/failures.ts';
import { envelope, handleError } from './errors.ts';
import { installGuard } from './auth/guard.ts';
import { installInputGuards } from './input-guards.ts';
import { installMetrics } from './metrics.ts';
import { assessmentRoutes } from './routes/assessments.ts';
import { auditRoutes } from './routes/audit.ts';
import { cdsHooksRoutes } from './routes/cds-hooks.ts';
import { clientErrorRoutes } from './routes/client-errors.ts';
import { codeExtractionRoutes } from './routes/code-extraction.ts';
import { exportRoutes } from './routes/exports.ts';
import { fhirRoutes } from './routes/fhir.ts';
import { fhirBulkRoutes } from './routes/fhir-bulk.ts';
import { smartRoutes } from './routes/smart.ts';
import { smartLaunchRoutes } from './routes/smart-launch.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { patientRoutes } from './routes/patients.ts';
import { populationRoutes } from './routes/population.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { secondFactorRoutes } from './routes/second-factor.ts';
import { ruleSetRoutes } from './routes/rule-sets.ts';
import { ruleSetImpactRoutes } from './routes/rule-set-impact.ts';
import { sessionRoutes } from './routes/session.ts';
import { userRoutes } from './routes/users.ts';
import { orgUnitRoutes } from './routes/org-units.ts';
import { worklistRoutes } from './routes/worklists.ts';
import { productVersion } from './version.ts';

export interface BuildAppOptions {
  context: AppContext;
  /** Folder of the built web app; when it does not exist only the API is served. */
  webRoot?: string | undefined;
  /** pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
}

export const defaultWebRoot = path.resolve(import.meta.dirname, '../../dist/web');

/** Strips query strings from logged URLs: a search term may be patient information. */
function redactedUrl(url: string): string {
  const question = url.indexOf('?');
  return question === -1 ? url : `${url.slice(0, question)}?[redacted]`;
}

export function loggerOptions(level: string): Record<string, unknown> {
  return {
    level,
    serializers: {
      req: (request: { method: string; url: string; id: string }) => ({
        id: request.id,
        method: request.method,
        url: redactedUrl(request.url),
      }),
    },
  };
}

/**
 * Whether a path that matched no route is meant for the API, however it is spelled: such a
 * request is answered 404, never with the web app's page.
 */
function isApiPath(url: string): boolean {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return /^[/\\.]*api(?![a-z0-9])/i.test(decoded);
}

/** Builds the whole application without listening, so tests can inject requests into it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { context } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(context.config.logLevel),
    trustProxy: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // After `triage restore --force` under this server its SQLite file is no longer the one at its
  // path: every request answers 503 until a restart opens the restored file, rather than reading
  // or writing the old one.
  const stillAtItsPath = context.database.stillAtItsPath;
  if (stillAtItsPath !== undefined) {
    app.addHook('onRequest', async () => {
      if (!stillAtItsPath()) throw new DatabaseReplacedError();
    });
  }
  await app.register(fastifyCookie);
  installGuard(app, context);
  installInputGuards(app);
  const metrics = installMetrics(app, context);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Chronic Disease Risk Assessment System API',
        description: 'The HTTP API of the clinical triage tool.',
        version: productVersion,
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
  await app.register(healthRoutes(context));
  await app.register(metricsRoutes(metrics));
  await app.register(sessionRoutes(context));
  await app.register(secondFactorRoutes(context));
  await app.register(userRoutes(context));
  await app.register(orgUnitRoutes(context));
  await app.register(auditRoutes(context));
  await app.register(populationRoutes(context));
  await app.register(patientRoutes(context));
  await app.register(assessmentRoutes(context));
  await app.register(codeExtractionRoutes(context));
  await app.register(exportRoutes(context));
  await app.register(reviewRoutes(context));
  await app.register(worklistRoutes(context));
  await app.register(ruleSetRoutes(context));
  await app.register(ruleSetImpactRoutes(context));
  await app.register(cdsHooksRoutes(context));
  await app.register(clientErrorRoutes());
  await app.register(fhirRoutes(context), { prefix: '/fhir' });
  await app.register(fhirBulkRoutes(context), { prefix: '/fhir' });
  await app.register(smartRoutes(context));
  await app.register(smartLaunchRoutes(context));

  const webRoot = options.webRoot ?? defaultWebRoot;
  const hasWeb = fs.existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz copies (vite.config.ts).
      preCompressed: true,
      setHeaders(response, filePath) {
        // Built assets carry a content hash in their names: a changed file is a new name.
        if (path.basename(path.dirname(filePath)) === 'assets') {
          response.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      request.method === 'GET' &&
      !isApiPath(request.url) &&
      (request.headers.accept ?? '').includes('text/html');
    // Client-side routes of the single-page app all load the app itself.
    if (hasWeb && wantsPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send(envelope('not_found', 'Not found'));
  });

  return app;
}
