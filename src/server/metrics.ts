import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from './context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route also admits the `METRICS_TOKEN` setting as a Bearer token in place of a session. */
    metricsToken?: true;
  }
}

/**
 * The label of a request's route: the pattern the router matched (`/api/assessments/:id`), never
 * the URL, so no id, search text or other patient data becomes a label. The web app's files are
 * one label (each built file is a route of its own, renamed by every build).
 */
function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return 'unmatched';
  if ((request.routeOptions.config as { file?: unknown }).file !== undefined) return 'web app file';
  return pattern;
}

/** Sign-in outcomes by the answer's status: a refusal for too many attempts is counted apart. */
function signInOutcome(status: number): string {
  if (status === 200) return 'success';
  if (status === 429) return 'throttled';
  if (status === 401) return 'failure';
  return 'error';
}

/** The routes whose answers count as sign-in steps, by their pattern. */
const signInSteps: Record<string, string> = {
  'POST /api/session': 'password',
  'POST /api/session/second-factor': 'second_factor',
};

/** The routes whose success stores an assessment. */
const saveKinds: Record<string, { kind: string; status: number }> = {
  'POST /api/assessments': { kind: 'create', status: 201 },
  'PUT /api/assessments/:id': { kind: 'update', status: 200 },
};

/**
 * Whether an `Authorization` header carries the `METRICS_TOKEN` setting. The hashes are compared
 * in constant time, so the answer's timing tells nothing of the token.
 */
export function isMetricsToken(context: AppContext, authorization: string | undefined): boolean {
  const expected = context.config.metricsToken;
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (expected === undefined || presented === undefined) return false;
  return crypto.timingSafeEqual(
    crypto.hash('sha256', presented, 'buffer'),
    crypto.hash('sha256', expected, 'buffer'),
  );
}

/**
 * The app's metrics in a registry of its own (tests build several apps in one process): requests
 * and their latency by route and status, saves, sign-in steps, the database pool or the group
 * commit's batch sizes, and Node's process figures. No label carries patient data.
 */
export function installMetrics(app: FastifyInstance, context: AppContext): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'triage_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'triage_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const saves = new Counter({
    name: 'triage_assessment_saves_total',
    help: 'Assessments stored: created or updated',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'triage_sign_ins_total',
    help: 'Sign-in steps answered (password, second factor), by outcome',
    labelNames: ['step', 'outcome'] as const,
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = routeLabel(request);
    const status = String(reply.statusCode);
    const labels = { method: request.method, route, status };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    const key = `${request.method} ${route}`;
    const step = signInSteps[key];
    if (step !== undefined) signIns.inc({ step, outcome: signInOutcome(reply.statusCode) });
    const save = saveKinds[key];
    if (save !== undefined && reply.statusCode === save.status) saves.inc({ kind: save.kind });
  });

  const { poolFigures, onCommitBatch } = context.database;
  if (poolFigures !== undefined) {
    new Gauge({
      name: 'triage_db_pool_connections',
      help: 'PostgreSQL pool connections, by state (in use or idle)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const figures = poolFigures();
        this.set({ state: 'in_use' }, figures.total - figures.idle);
        this.set({ state: 'idle' }, figures.idle);
      },
    });
    new Gauge({
      name: 'triage_db_pool_waiting_requests',
      help: 'Requests waiting for a PostgreSQL pool connection',
      registers: [registry],
      collect() {
        this.set(poolFigures().waiting);
      },
    });
  }
  if (onCommitBatch !== undefined) {
    const batches = new Histogram({
      name: 'triage_db_group_commit_changes',
      help: 'Changes stored by each SQLite group commit',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    });
    const stop = onCommitBatch((changes) => batches.observe(changes));
    app.addHook('onClose', async () => stop());
  }
  return registry;
}
