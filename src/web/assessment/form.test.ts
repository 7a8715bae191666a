import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import { assessmentInputSchema } from '../../shared/assessment-input.ts';
import {
  anyManagementRecorded,
  anySymptomRecorded,
  assessmentBody,
  emptyForm,
  emptyPatientForm,
  formFromAssessment,
  hasInvalidDemographics,
  parseDemographics,
  patientBodyPart,
  sameContent,
  withSymptomAnswer,
  type AssessmentForm,
  type DemographicsForm,
} from './form.ts';

const filled: DemographicsForm = { age: '58', gender: 'Female', height: '165', weight: '80' };

function messageFor(form: Partial<DemographicsForm>, field: keyof DemographicsForm) {
  return parseDemographics({ ...filled, ...form }).problems[field]?.message;
}

describe('parseDemographics (spec 5)', () => {
  it('takes valid values as numbers and reports no problem', () => {
    expect(parseDemographics(filled)).toEqual({
      values: { age: 58, gender: 'Female', height: 165, weight: 80 },
      problems: {},
    });
  });

  it('marks empty fields as missing, which does not count as invalid', () => {
    const parsed = parseDemographics(emptyForm.demographics);
    expect(parsed.values).toEqual({});
    expect(parsed.problems).toEqual({
      age: { message: 'Age is required', missing: true },
      gender: { message: 'Gender is required', missing: true },
      height: { message: 'Height is required', missing: true },
      weight: { message: 'Weight is required', missing: true },
    });
    expect(hasInvalidDemographics(parsed)).toBe(false);
  });

  it('wants a whole age from 1 to 120, one rule for every message', () => {
    expect(messageFor({ age: '58.5' }, 'age')).toBe('Age must be a whole number');
    expect(messageFor({ age: '121' }, 'age')).toBe('Age must be between 1 and 120');
    expect(messageFor({ age: '120' }, 'age')).toBeUndefined();
    expect(messageFor({ age: '1' }, 'age')).toBeUndefined();
    // 0 is an answer the engine scores (a stored assessment may hold it), but not enough for step 2.
    const zero = parseDemographics({ ...filled, age: '0' });
    expect(zero.values.age).toBe(0);
    expect(zero.problems.age?.message).toBe('Age must be between 1 and 120');
  });

  it('keeps height within 50-250 cm and weight within 1-500 kg, to one decimal', () => {
    expect(messageFor({ height: '49.9' }, 'height')).toBe('Height must be between 50 and 250 cm');
    expect(messageFor({ height: '250.1' }, 'height')).toBe('Height must be between 50 and 250 cm');
    expect(messageFor({ height: '172.55' }, 'height')).toBe(
      'Height must be a number with at most one decimal place',
    );
    expect(messageFor({ weight: '0.9' }, 'weight')).toBe('Weight must be between 1 and 500 kg');
    expect(messageFor({ weight: '500.1' }, 'weight')).toBe('Weight must be between 1 and 500 kg');
    expect(parseDemographics({ ...filled, height: '50', weight: '500' }).problems).toEqual({});
    expect(parseDemographics({ ...filled, height: '172.5' }).values.height).toBe(172.5);
  });

  it.each([
    ['age', ['-1', '0', '120', '121']],
    ['height', ['49.9', '50', '250', '250.1']],
    ['weight', ['0.9', '1', '500', '500.1']],
  ] as const)(
    'takes a %s at its bounds and refuses one beyond, as the server does',
    (field, typed) => {
      const wizardTakes = typed.map(
        (text) => parseDemographics({ ...filled, [field]: text }).values[field] !== undefined,
      );
      const serverTakes = typed.map(
        (text) =>
          assessmentInputSchema.safeParse({ demographics: { [field]: Number(text) } }).success,
      );
      expect(wizardTakes).toEqual([false, true, true, false]);
      expect(serverTakes).toEqual(wizardTakes);
    },
  );

  it('leaves an invalid value out, as if unanswered, and flags it as invalid', () => {
    const parsed = parseDemographics({ ...filled, weight: '600' });
    expect(parsed.values).toEqual({ age: 58, gender: 'Female', height: 165 });
    expect(hasInvalidDemographics(parsed)).toBe(true);
  });
});

const form: AssessmentForm = {
  patient: emptyPatientForm,
  demographics: filled,
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  management: { Hypertension: { diagnosed: true, lastDoctorVisit: '6-12months' } },
  notes: '',
  orgUnitId: null,
};

describe('assessmentBody', () => {
  it('sends the valid demographics, the answers, the code when given, and empty notes as null', () => {
    expect(assessmentBody(form, 'ASS-ABC-1234')).toEqual({
      code: 'ASS-ABC-1234',
      patientId: null,
      demographics: { age: 58, gender: 'Female', height: 165, weight: 80 },
      riskFactors: form.riskFactors,
      symptoms: form.symptoms,
      management: form.management,
      notes: null,
    });
    expect(assessmentBody({ ...form, notes: 'seen' })).not.toHaveProperty('code');
    expect(assessmentBody({ ...form, notes: 'seen' }).notes).toBe('seen');
  });

  it('sends the unit chosen in step 1, and none when none is chosen', () => {
    expect(assessmentBody(form)).not.toHaveProperty('orgUnitId');
    const atAlder = { ...form, orgUnitId: 'u-alder' };
    expect(assessmentBody(atAlder, 'ASS-ABC-1234')).toMatchObject({
      code: 'ASS-ABC-1234',
      orgUnitId: 'u-alder',
    });
    const newPatient = { ...emptyPatientForm, number: 'MRN-77', isNew: true };
    expect(assessmentBody({ ...atAlder, patient: newPatient })).toMatchObject({
      orgUnitId: 'u-alder',
      newPatient: { number: 'MRN-77' },
    });
  });
});

describe('patientBodyPart', () => {
  const chosen = { id: 'p-1', number: 'MRN-1001', name: 'Thandi Mokoena' };
  const typed = { ...emptyPatientForm, number: ' MRN-77 ' };

  it('names no patient record without a patient number', () => {
    expect(patientBodyPart(emptyPatientForm)).toEqual({ patientId: null });
    expect(patientBodyPart({ ...typed, number: '   ', isNew: true, name: 'Left' })).toEqual({
      patientId: null,
    });
  });

  it('names the chosen record by its id, whatever new-patient details were typed before', () => {
    expect(
      patientBodyPart({
        number: 'MRN-1001',
        chosen,
        isNew: false,
        byNumber: false,
        linkWhateverGender: false,
        name: 'Other',
        birthDate: '1970-01-01',
      }),
    ).toEqual({ patientId: 'p-1' });
  });

  it("creates a new patient under the number once 'New patient' is chosen", () => {
    expect(patientBodyPart({ ...typed, isNew: true })).toEqual({
      newPatient: { number: 'MRN-77' },
    });
    expect(
      patientBodyPart({ ...typed, isNew: true, name: ' Sipho Dlamini ', birthDate: '1980-05-02' }),
    ).toEqual({ newPatient: { number: 'MRN-77', name: 'Sipho Dlamini', birthDate: '1980-05-02' } });
  });

  it('names none for a number neither chosen nor made new', () => {
    expect(patientBodyPart(typed)).toEqual({ patientId: null });
  });

  it("names the patient by number once 'Use patient number' is chosen, saying whether to link whatever the gender", () => {
    expect(patientBodyPart({ ...typed, byNumber: true, name: ' Sipho ' })).toEqual({
      patientByNumber: { number: 'MRN-77', name: 'Sipho' },
    });
    expect(patientBodyPart({ ...typed, byNumber: true, linkWhateverGender: true })).toEqual({
      patientByNumber: { number: 'MRN-77', linkWhateverGender: true },
    });
    expect(patientBodyPart({ ...typed, number: ' ', byNumber: true })).toEqual({
      patientId: null,
    });
  });
});

describe('sameContent', () => {
  const stored = {
    patient: null,
    demographics: { age: 58, gender: 'Female', height: 165, weight: 80, bmi: 29.38 },
    riskFactors: { smoking: false, familyHistory: { DM2: true } },
    symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
    management: { Hypertension: { diagnosed: true, lastDoctorVisit: '6-12months' } },
    notes: null,
  } as unknown as Assessment;

  it('finds a form equal to the assessment it was loaded from', () => {
    expect(sameContent(form, formFromAssessment(stored))).toBe(true);
  });

  it('leaves the unit out: a saved assessment keeps the unit it was made at', () => {
    expect(formFromAssessment(stored).orgUnitId).toBeNull();
    expect(sameContent({ ...form, orgUnitId: 'u-alder' }, formFromAssessment(stored))).toBe(true);
  });

  it('ignores how a number was typed and empty parts', () => {
    const typed = {
      ...form,
      demographics: { ...filled, height: '165.0' },
      riskFactors: { ...form.riskFactors, familyHistory: { DM2: true, Asthma: undefined } },
      symptoms: { ...form.symptoms, HIV: {} },
    };
    expect(sameContent(typed, form)).toBe(true);
  });

  it('keeps the patient record of the assessment it was loaded from', () => {
    const chosen = { id: 'p-1', number: 'MRN-1001', name: null };
    const linked = formFromAssessment({ ...stored, patient: chosen });
    expect(linked.patient).toEqual({
      number: 'MRN-1001',
      chosen,
      isNew: false,
      byNumber: false,
      linkWhateverGender: false,
      name: '',
      birthDate: '',
    });
    expect(sameContent(linked, { ...form, patient: linked.patient })).toBe(true);
    // Clearing the number unlinks the record: a change to save.
    expect(sameContent({ ...linked, patient: emptyPatientForm }, linked)).toBe(false);
  });

  it('sees a change of notes, of an answer or of a demographic value', () => {
    expect(sameContent({ ...form, notes: 'x' }, form)).toBe(false);
    expect(sameContent({ ...form, riskFactors: { smoking: true } }, form)).toBe(false);
    expect(sameContent({ ...form, demographics: { ...filled, age: '59' } }, form)).toBe(false);
  });
});

describe('answers recorded (the Symptoms and Management ticks)', () => {
  it('counts a symptom answered No as recorded', () => {
    expect(anySymptomRecorded({})).toBe(false);
    expect(anySymptomRecorded({ TB: {} })).toBe(false);
    expect(anySymptomRecorded(withSymptomAnswer({}, 'TB', 'fever', { present: false }))).toBe(true);
  });

  it('counts a management question answered No as recorded', () => {
    expect(anyManagementRecorded({})).toBe(false);
    expect(anyManagementRecorded({ HIV: { diagnosed: false } })).toBe(true);
  });

  it('replaces one answer and keeps the others', () => {
    const symptoms = withSymptomAnswer(form.symptoms, 'DM2', 'fatigue', { present: false });
    expect(symptoms.DM2).toEqual({
      thirst: { present: true, severity: 'moderate' },
      fatigue: { present: false },
    });
  });
});
