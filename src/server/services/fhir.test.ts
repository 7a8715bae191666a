import type { RiskAssessment } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { score, type PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { ConditionReview } from '../db/repositories/exports.ts';
import { fhirValidator } from '../testing/fhir-schema.ts';
import {
  assessmentResources,
  fhirBundle,
  organizationResource,
  organizationsUpFrom,
  type AssessmentResource,
  type LinkedPatient,
} from './fhir.ts';

const base = 'https://triage.clinic.example/fhir';
const unreviewed = { version: 0, at: null };

const validate = fhirValidator([
  'Bundle',
  'Patient',
  'Observation',
  'Condition',
  'RiskAssessment',
  'Organization',
]);

/** An assessment as the API shows it, scored by the engine like a stored one. */
function assessmentOf(input: PatientData, signedOff = false): Assessment {
  const results = score(input);
  return {
    id: 'a6f1c2de-0000-4000-8000-000000000001',
    code: 'ASS-MHX3K2QZ-7F2A',
    version: 1,
    demographics: { ...input.demographics, bmi: results.patientBMI },
    riskFactors: input.riskFactors ?? {},
    symptoms: input.symptoms ?? {},
    management: input.management ?? {},
    notes: null,
    results,
    assessmentComplete: results.assessmentComplete,
    totalScore: results.totalScore,
    signedOff,
    signedOffAt: signedOff ? '2026-11-22T10:00:00.000Z' : null,
    signedOffBy: signedOff ? 'Dee Doctor' : null,
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    createdBy: 'Nia Nurse',
    deletedAt: null,
    patient: null,
    previousAssessment: null,
  };
}

/**
 * One condition per status: DM2 high (age, BMI, family history, two symptoms), Asthma moderate
 * (cough and young age, threshold 2), TB low, HIV insufficient data (gender missing) and
 * Hypertension diagnosed.
 */
const everyStatus: PatientData = {
  demographics: { age: 30, height: 160, weight: 80 },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: {
    DM2: { thirst: { present: true, severity: 'mild' }, fatigue: { present: true } },
    Asthma: { coughOnOff: { present: true } },
  },
  management: { Hypertension: { diagnosed: true, lastDoctorVisit: '>12months' } },
};

const riskOf = (resources: AssessmentResource[], snomed: string) =>
  resources.find(
    (r): r is RiskAssessment =>
      r.resourceType === 'RiskAssessment' &&
      (r.prediction?.[0]?.outcome?.coding ?? []).some((coding) => coding.code === snomed),
  );

describe('FHIR resources of an assessment', () => {
  it('validates against the FHIR R4 schema, as a Bundle and resource by resource', () => {
    const resources = assessmentResources(assessmentOf(everyStatus), [], unreviewed);
    const bundle = fhirBundle(resources, new Date('2026-11-22T11:00:00.000Z'), base);
    expect(validate(bundle)).toEqual([]);
    for (const resource of resources) expect(validate(resource)).toEqual([]);
    expect(bundle.timestamp).toBe('2026-11-22T11:00:00.000Z');
  });

  it.each([
    ['DM2', '44054006', 'TRUE', 'high'],
    ['Asthma', '195967001', 'MAYBE', 'moderate'],
    ['TB', '56717001', 'FALSE', 'low'],
  ])('gives %s (%s) at status %s the qualitative risk %s', (_condition, snomed, _status, code) => {
    const risk = riskOf(assessmentResources(assessmentOf(everyStatus), [], unreviewed), snomed);
    expect(risk?.prediction?.[0]?.qualitativeRisk?.coding).toEqual([
      expect.objectContaining({
        system: 'http://terminology.hl7.org/CodeSystem/risk-probability',
        code,
      }),
    ]);
    expect(risk?.prediction?.[0]?.rationale).toContain('not a calibrated probability');
    expect(risk?.prediction?.[0]).not.toHaveProperty('probabilityDecimal');
  });

  it('gives no qualitative risk for a diagnosed condition or insufficient data, and says why', () => {
    const resources = assessmentResources(assessmentOf(everyStatus), [], unreviewed);
    const hypertension = riskOf(resources, '38341003');
    expect(hypertension?.prediction?.[0]?.qualitativeRisk).toBeUndefined();
    expect(hypertension?.prediction?.[0]?.rationale).toMatch(/^Diagnosed: .*already diagnosed/);
    const hiv = riskOf(resources, '86406008');
    expect(hiv?.prediction?.[0]?.qualitativeRisk).toBeUndefined();
    expect(hiv?.prediction?.[0]?.rationale).toMatch(/^Insufficient Data.*gender not recorded/);
  });

  it('puts the score and the factor count against the threshold in the rationale', () => {
    const dm2 = riskOf(assessmentResources(assessmentOf(everyStatus), [], unreviewed), '44054006');
    const result = score(everyStatus).conditions[0];
    expect(dm2?.prediction?.[0]?.rationale).toContain(
      `Factor count ${result?.factorCount ?? -1} against a threshold of 2; total score ${result?.totalScore.toFixed(4) ?? ''}`,
    );
  });

  it('names the rule set as the method, preliminary until signed off and final after', () => {
    for (const [signedOff, status] of [
      [false, 'preliminary'],
      [true, 'final'],
    ] as const) {
      const resources = assessmentResources(assessmentOf(everyStatus, signedOff), [], unreviewed);
      const risks = resources.filter((r) => r.resourceType === 'RiskAssessment');
      expect(risks).toHaveLength(6);
      for (const risk of risks) {
        expect(risk.status).toBe(status);
        expect(risk.method?.text).toBe('Clinical Guidelines Version 2.0');
        expect(risk.method?.coding?.[0]?.code).toBe('2.0');
      }
    }
  });

  it('shares only the gender of the patient', () => {
    const [patient] = assessmentResources(
      assessmentOf({ demographics: { age: 40, gender: 'Male' } }),
      [],
      unreviewed,
    );
    expect(Object.keys(patient ?? {}).sort()).toEqual(['gender', 'id', 'meta', 'resourceType']);
    expect(patient).toMatchObject({ resourceType: 'Patient', gender: 'male' });
    const [unknown] = assessmentResources(assessmentOf({}), [], unreviewed);
    expect(unknown).toEqual({ resourceType: 'Patient', id: unknown?.id, meta: unknown?.meta });
  });

  it('leaves out the measurements that were not recorded, and BMI without a height', () => {
    const resources = assessmentResources(
      assessmentOf({ demographics: { age: 40, weight: 70 } }),
      [],
      unreviewed,
    );
    const codes = resources
      .filter((r) => r.resourceType === 'Observation')
      .map((o) => o.code.coding?.[0]?.code);
    expect(codes).toEqual(['30525-0', '29463-7']);
    for (const resource of resources) expect(validate(resource)).toEqual([]);
  });

  it('rounds the BMI to one decimal, in kg/m2', () => {
    const bmi = assessmentResources(
      assessmentOf({ demographics: { height: 175, weight: 70 } }),
      [],
      unreviewed,
    ).find((r) => r.resourceType === 'Observation' && r.code.coding?.[0]?.code === '39156-5');
    expect(bmi).toMatchObject({
      valueQuantity: { value: 22.9, unit: 'kg/m2', system: 'http://unitsofmeasure.org' },
    });
  });

  it('bases a risk on the diagnosed comorbidities as well as the measurements', () => {
    const resources = assessmentResources(
      assessmentOf({ demographics: { age: 40 }, management: { TB: { diagnosed: true } } }),
      [],
      unreviewed,
    );
    const tb = resources.find((r) => r.resourceType === 'Condition');
    const age = resources.find((r) => r.resourceType === 'Observation');
    expect(riskOf(resources, '86406008')?.basis).toEqual([
      { reference: `Observation/${age?.id ?? ''}` },
      { reference: `Condition/${tb?.id ?? ''}` },
    ]);
    expect(riskOf(resources, '56717001')?.condition).toEqual({
      reference: `Condition/${tb?.id ?? ''}`,
    });
    // Nothing was measured for an empty assessment: no empty basis array, which FHIR forbids.
    const empty = assessmentResources(assessmentOf({}), [], unreviewed);
    expect(riskOf(empty, '44054006')).not.toHaveProperty('basis');
  });

  it('adds the doctor comments of a condition as notes, skipping empty ones', () => {
    const reviews: ConditionReview[] = [
      {
        condition: 'DM2',
        agreed: true,
        comments: 'Agree; order HbA1c.',
        reviewed_by: 'Dee',
        locked: true,
      },
      { condition: 'TB', agreed: false, comments: '   ', reviewed_by: 'Dee', locked: true },
    ];
    const resources = assessmentResources(assessmentOf(everyStatus), reviews, unreviewed);
    expect(riskOf(resources, '44054006')?.note).toEqual([
      { text: 'Agree; order HbA1c.', authorString: 'Dee' },
    ]);
    expect(riskOf(resources, '56717001')).not.toHaveProperty('note');
  });

  it("versions every resource of an assessment by the assessment's version and its review writes", () => {
    const assessment = { ...assessmentOf(everyStatus), version: 2 };
    const metas = (review: { version: number; at: string | null }) =>
      new Set(
        assessmentResources(assessment, [], review).map((resource) =>
          JSON.stringify(resource.meta),
        ),
      );
    expect(metas(unreviewed)).toEqual(
      new Set([JSON.stringify({ versionId: '2', lastUpdated: '2026-11-22T09:00:00.000Z' })]),
    );
    // Each review write raises the version; the last update is the later of the two times.
    expect(metas({ version: 3, at: '2026-11-22T10:30:00.000Z' })).toEqual(
      new Set([JSON.stringify({ versionId: '5', lastUpdated: '2026-11-22T10:30:00.000Z' })]),
    );
    expect(metas({ version: 1, at: '2026-11-22T08:00:00.000Z' })).toEqual(
      new Set([JSON.stringify({ versionId: '3', lastUpdated: '2026-11-22T09:00:00.000Z' })]),
    );
  });

  it("names each resource by the assessment's id and what it is, the same on every export", () => {
    const first = assessmentResources(assessmentOf(everyStatus), [], unreviewed);
    const again = assessmentResources(assessmentOf(everyStatus), [], unreviewed);
    const ids = first.map((r) => `${r.resourceType}/${r.id ?? ''}`);
    expect(again.map((r) => `${r.resourceType}/${r.id ?? ''}`)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const assessment = 'a6f1c2de-0000-4000-8000-000000000001';
    expect(ids).toEqual([
      `Patient/${assessment}.patient`,
      `Observation/${assessment}.age`,
      `Observation/${assessment}.height`,
      `Observation/${assessment}.weight`,
      `Observation/${assessment}.bmi`,
      `Condition/${assessment}.Hypertension`,
      ...['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'].map(
        (condition) => `RiskAssessment/${assessment}.${condition}`,
      ),
    ]);
  });

  it("refers by type and id, and a bundle's fullUrls are the read API's URLs of its entries", () => {
    const resources = assessmentResources(assessmentOf(everyStatus), [], unreviewed);
    const patientId = resources[0]?.id ?? '';
    const subjects = resources.flatMap((r) =>
      'subject' in r && r.subject ? [r.subject.reference] : [],
    );
    expect(new Set(subjects)).toEqual(new Set([`Patient/${patientId}`]));
    const bundle = fhirBundle(resources, new Date('2026-11-22T11:00:00.000Z'), base);
    expect(bundle.entry?.map((entry) => entry.fullUrl)).toEqual(
      resources.map((r) => `${base}/${r.resourceType}/${r.id ?? ''}`),
    );
  });

  describe('of an assessment that names a patient record', () => {
    const linked = (
      record: Partial<LinkedPatient['record']> = {},
      included = true,
    ): LinkedPatient => ({
      record: {
        id: '019a8f6e-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
        number: 'MRN-0001',
        name: 'Amina Okafor',
        birthDate: '1964-03-02',
        gender: 'Female',
        orgUnitId: '019a8f6e-0000-7000-8000-00000000f001',
        version: 3,
        updatedAt: '2026-11-21T08:00:00.000Z',
        ...record,
      },
      identifierSystem: 'https://clinic.example/fhir/patient-number',
      included,
    });

    it("is the record's Patient: its number as an identifier, its name, gender and date of birth", () => {
      const resources = assessmentResources(assessmentOf(everyStatus), [], unreviewed, linked());
      const patients = resources.filter((r) => r.resourceType === 'Patient');
      expect(patients).toEqual([
        {
          resourceType: 'Patient',
          id: '019a8f6e-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
          meta: { versionId: '3', lastUpdated: '2026-11-21T08:00:00.000Z' },
          identifier: [{ system: 'https://clinic.example/fhir/patient-number', value: 'MRN-0001' }],
          name: [{ text: 'Amina Okafor' }],
          gender: 'female',
          birthDate: '1964-03-02',
          managingOrganization: { reference: 'Organization/019a8f6e-0000-7000-8000-00000000f001' },
        },
      ]);
      expect(resources[0]).toBe(patients[0]);
      for (const resource of resources) expect(validate(resource)).toEqual([]);
      expect(validate(fhirBundle(resources, new Date('2026-11-22T11:00:00.000Z'), base))).toEqual(
        [],
      );
    });

    it('leaves out what the record does not know', () => {
      const [patient] = assessmentResources(
        // The assessment's own gender is not the record's.
        assessmentOf({ demographics: { gender: 'Male' } }),
        [],
        unreviewed,
        linked({ name: null, birthDate: null, gender: null }),
      );
      expect(Object.keys(patient ?? {}).sort()).toEqual([
        'id',
        'identifier',
        'managingOrganization',
        'meta',
        'resourceType',
      ]);
      expect(validate(patient)).toEqual([]);
      const [male] = assessmentResources(
        assessmentOf({}),
        [],
        unreviewed,
        linked({ gender: 'Male' }),
      );
      expect(male).toMatchObject({ gender: 'male' });
    });

    it('is the subject of every resource, by type and id in bulk data', () => {
      const resources = assessmentResources(
        assessmentOf({
          ...everyStatus,
          demographics: { ...everyStatus.demographics, gender: 'Female' },
        }),
        [],
        unreviewed,
        linked(),
      );
      const patientId = '019a8f6e-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
      const subjects = resources.flatMap((r) =>
        'subject' in r && r.subject ? [r.subject.reference] : [],
      );
      expect(subjects).toHaveLength(resources.length - 1);
      expect(new Set(subjects)).toEqual(new Set([`Patient/${patientId}`]));
      // The same person's next assessment names the same Patient.
      const next = assessmentResources(
        { ...assessmentOf(everyStatus), id: 'a6f1c2de-0000-4000-8000-000000000002' },
        [],
        unreviewed,
        linked(),
      );
      expect(next[0]?.id).toBe(patientId);
      expect(next[1]?.id).not.toBe(resources[1]?.id);
    });

    it('only refers to a Patient that an earlier line of the file has written', () => {
      const written = assessmentResources(assessmentOf(everyStatus), [], unreviewed, linked());
      const referring = assessmentResources(
        assessmentOf(everyStatus),
        [],
        unreviewed,
        linked({}, false),
      );
      expect(referring.map((r) => r.resourceType)).not.toContain('Patient');
      expect(referring).toEqual(written.slice(1));
    });
  });
});

describe('the Organization of an organisation unit', () => {
  const unit = {
    id: '019a8f6e-0000-7000-8000-00000000f001',
    code: 'KAN-014',
    code_key: 'kan-014',
    name: 'Kanyama clinic',
    parent_id: '019a8f6e-0000-7000-8000-00000000d001',
    closed_at: null,
    version: 4,
    created_at: '2026-11-01T08:00:00.000Z',
    updated_at: '2026-11-20T08:00:00.000Z',
  };
  const district = {
    ...unit,
    id: '019a8f6e-0000-7000-8000-00000000d001',
    code: 'LSK',
    code_key: 'lsk',
    name: 'Lusaka district',
    parent_id: null,
  };
  const system = 'https://health.example/fhir/facility-code';

  it('has its code as an identifier, its name, and its parent as partOf', () => {
    const organization = organizationResource(unit, system);
    expect(organization).toEqual({
      resourceType: 'Organization',
      id: unit.id,
      meta: { versionId: '4', lastUpdated: '2026-11-20T08:00:00.000Z' },
      identifier: [{ system, value: 'KAN-014' }],
      active: true,
      name: 'Kanyama clinic',
      partOf: { reference: 'Organization/019a8f6e-0000-7000-8000-00000000d001' },
    });
    expect(validate(organization)).toEqual([]);
  });

  it('is inactive once closed, and the top of the tree is part of nothing', () => {
    const organization = organizationResource(
      { ...unit, parent_id: null, closed_at: '2026-11-21T08:00:00.000Z' },
      system,
    );
    expect(organization.active).toBe(false);
    expect(organization).not.toHaveProperty('partOf');
    expect(validate(organization)).toEqual([]);
  });

  it('comes with the units above it, top first, each once in a file', () => {
    const units = new Map([unit, district].map((row) => [row.id, row]));
    const written = new Set<string>();
    expect(organizationsUpFrom(unit.id, units, written, system).map((o) => o.id)).toEqual([
      district.id,
      unit.id,
    ]);
    expect(organizationsUpFrom(unit.id, units, written, system)).toEqual([]);
    expect(organizationsUpFrom(district.id, units, written, system)).toEqual([]);
  });
});
