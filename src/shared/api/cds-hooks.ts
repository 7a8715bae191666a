import { z } from 'zod';

/**
 * The CDS Hooks 2.0 contract of the chronic disease risk service (issue 20): the discovery
 * answer, the call a record system makes and the cards it gets back. Fields the specification
 * allows and this service does not read (`extension`, other context fields) are let through.
 */

/** A FHIR resource id (FHIR R4: 1 to 64 letters, digits, '-' and '.'). */
const fhirIdSchema = z.string().regex(/^[A-Za-z0-9.-]{1,64}$/, 'Not a FHIR resource id');

export const cdsServiceSchema = z.object({
  hook: z.string(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  prefetch: z.record(z.string(), z.string()),
});

export const cdsDiscoverySchema = z.object({ services: z.array(cdsServiceSchema) });
export type CdsDiscovery = z.infer<typeof cdsDiscoverySchema>;

export const cdsRequestSchema = z
  .looseObject({
    hook: z.literal('patient-view'),
    /** A UUID the record system gives each call. */
    hookInstance: z.guid(),
    /** The base URL of the record system's FHIR server (https in production). */
    fhirServer: z.url({ protocol: /^https?$/ }).optional(),
    fhirAuthorization: z
      .looseObject({
        access_token: z.string().min(1),
        token_type: z.literal('Bearer'),
        expires_in: z.number().optional(),
        scope: z.string().optional(),
        subject: z.string().optional(),
      })
      .optional(),
    context: z.looseObject({ patientId: fhirIdSchema, userId: z.string().optional() }),
    /** Per prefetch key: the resource or searchset Bundle, or null when the record has none. */
    prefetch: z.record(z.string(), z.unknown()).optional(),
  })
  .refine(
    (request) => request.fhirAuthorization === undefined || request.fhirServer !== undefined,
    {
      message: 'fhirAuthorization needs fhirServer',
      path: ['fhirServer'],
    },
  );
export type CdsRequest = z.infer<typeof cdsRequestSchema>;

export const cdsCodingSchema = z.object({
  system: z.string(),
  code: z.string(),
  display: z.string(),
});

export const cdsCardSchema = z.object({
  uuid: z.string(),
  /** Under 140 characters. */
  summary: z.string().max(139),
  /** GitHub-flavoured Markdown. */
  detail: z.string(),
  indicator: z.enum(['info', 'warning']),
  source: z.object({
    label: z.string(),
    url: z.string().optional(),
    /** The rule set version the card was scored under. */
    topic: cdsCodingSchema,
  }),
  links: z
    .array(
      z.object({
        label: z.string(),
        url: z.string(),
        /** `smart` when the app can be launched from the record (SMART_CLIENT_ID), else `absolute`. */
        type: z.enum(['absolute', 'smart']),
        /** With a `smart` link: what the launched app starts, passed back in its token response. */
        appContext: z.string().optional(),
      }),
    )
    .optional(),
});
export type CdsCard = z.infer<typeof cdsCardSchema>;

export const cdsResponseSchema = z.object({ cards: z.array(cdsCardSchema) });
export type CdsResponse = z.infer<typeof cdsResponseSchema>;
