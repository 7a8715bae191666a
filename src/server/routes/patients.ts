import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  patientAssessmentListSchema,
  patientBodySchema,
  patientIdParamsSchema,
  patientListQuerySchema,
  patientListSchema,
  patientSchema,
  patientTransferBodySchema,
} from '../../shared/api/patients.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import {
  createPatient,
  deletePatient,
  getPatient,
  listPatients,
  patientAssessments,
  restorePatient,
  transferPatient,
  updatePatient,
} from '../services/patients.ts';
import { etag, ifMatchHeaders, ifMatchVersion, requiredIfMatchVersion } from './if-match.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

const tags = ['patients'];

export function patientRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/patients',
      {
        config: { access: 'patient.view' },
        schema: {
          summary:
            'Search live patient records by number or name (each word matches the start of a word), by number',
          description:
            'A search whose words are all of one character (the first key typed) matches them as whole words (an initial, a one-digit part of a number), so that it does not read every record; beside a longer word they match starts as usual.',
          tags,
          querystring: patientListQuerySchema,
          response: { 200: patientListSchema, ...errors },
        },
      },
      async (request) => listPatients(context, requesterOf(request), request.query),
    );

    app.post(
      '/api/patients',
      {
        config: { access: 'patient.create' },
        schema: {
          summary: 'Create a patient record; a number another live record has is a 409',
          tags,
          body: patientBodySchema,
          response: { 201: patientSchema, ...errors },
        },
      },
      async (request, reply) => {
        const patient = await createPatient(context, requesterOf(request), request.body);
        void reply.header('etag', etag(patient.version));
        return reply.status(201).send(patient);
      },
    );

    app.get(
      '/api/patients/:id',
      {
        config: { access: 'patient.view' },
        schema: {
          summary: 'Read one patient record (audited); the ETag carries its version',
          tags,
          params: patientIdParamsSchema,
          response: { 200: patientSchema, ...errors },
        },
      },
      async (request, reply) => {
        const patient = await getPatient(context, requesterOf(request), request.params.id);
        void reply.header('etag', etag(patient.version));
        return patient;
      },
    );

    app.put(
      '/api/patients/:id',
      {
        config: { access: 'patient.update' },
        schema: {
          summary: "Change a patient's details; If-Match must carry the version it was based on",
          tags,
          params: patientIdParamsSchema,
          headers: ifMatchHeaders,
          body: patientBodySchema,
          response: { 200: patientSchema, ...errors, ...errorResponses(412, 428) },
        },
      },
      async (request, reply) => {
        const patient = await updatePatient(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
          request.body,
        );
        void reply.header('etag', etag(patient.version));
        return patient;
      },
    );

    app.delete(
      '/api/patients/:id',
      {
        config: { access: 'patient.delete' },
        schema: {
          summary:
            'Delete a patient record (soft; restorable). With If-Match, only at that version',
          tags,
          params: patientIdParamsSchema,
          headers: ifMatchHeaders,
          response: { 204: z.null(), ...errors, ...errorResponses(412) },
        },
      },
      async (request, reply) => {
        await deletePatient(
          context,
          requesterOf(request),
          request.params.id,
          ifMatchVersion(request),
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/patients/:id/restore',
      {
        config: { access: 'patient.restore' },
        schema: {
          summary: 'Restore a deleted patient record',
          tags,
          params: patientIdParamsSchema,
          response: { 200: patientSchema, ...errors },
        },
      },
      async (request, reply) => {
        const patient = await restorePatient(context, requesterOf(request), request.params.id);
        void reply.header('etag', etag(patient.version));
        return patient;
      },
    );

    app.post(
      '/api/patients/:id/transfer',
      {
        config: { access: 'patient.update' },
        schema: {
          summary: 'Register a patient record at another organisation unit; If-Match is required',
          description:
            "The unit must lie within your scope and be open, and the number must be free there (409 otherwise). The patient's assessments stay at the units where they were done. Audited with both units.",
          tags,
          params: patientIdParamsSchema,
          headers: ifMatchHeaders,
          body: patientTransferBodySchema,
          response: { 200: patientSchema, ...errors, ...errorResponses(412, 428) },
        },
      },
      async (request, reply) => {
        const patient = await transferPatient(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
          request.body.orgUnitId,
        );
        void reply.header('etag', etag(patient.version));
        return patient;
      },
    );

    app.get(
      '/api/patients/:id/assessments',
      {
        config: { access: 'patient.view' },
        schema: {
          summary: "A patient's live assessments, newest first",
          tags,
          params: patientIdParamsSchema,
          response: { 200: patientAssessmentListSchema, ...errors },
        },
      },
      async (request) => patientAssessments(context, requesterOf(request), request.params.id),
    );
  };
}
