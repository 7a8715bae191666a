import { describe, expect, it } from 'vitest';
import {
  clearAssessmentDraft,
  draftStorageKey,
  newDraft,
  serializeDraft,
  writeDraft,
  type AssessmentDraft,
} from './draft.ts';
import { parseDraft, readDraftFor } from './readDraft.ts';
import { emptyForm, emptyPatientForm } from './form.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const draft: AssessmentDraft = {
  userId: 'u1',
  code: 'ASS-MB1X2Y3Z-AB12',
  assessmentId: null,
  baseVersion: null,
  resultsCalculated: true,
  form: {
    patient: {
      number: 'MRN-1001',
      chosen: { id: 'p-1', number: 'MRN-1001', name: 'Thandi Mokoena' },
      isNew: false,
      byNumber: false,
      linkWhateverGender: false,
      name: '',
      birthDate: '',
    },
    demographics: { age: '58', gender: 'Female', height: '165', weight: '8' },
    riskFactors: { familyHistory: { DM2: true } },
    symptoms: { HIV: { weightLoss: { present: true, severity: 'gain' } } },
    management: { Hypertension: { diagnosed: true, prescriptionDuration: '<4months' } },
    notes: 'Half-typed note',
    orgUnitId: 'u-alder',
  },
};

describe('draft (de)serialisation', () => {
  it('gives back what was stored, half-typed values included', () => {
    expect(parseDraft(serializeDraft(draft))).toEqual(draft);
  });

  it('keeps a new patient typed but not saved yet', () => {
    const typed: AssessmentDraft = {
      ...draft,
      form: {
        ...draft.form,
        patient: {
          number: 'MRN-77',
          chosen: null,
          isNew: true,
          byNumber: false,
          linkWhateverGender: false,
          name: 'Sipho',
          birthDate: '1980-05-0',
        },
      },
    };
    expect(parseDraft(serializeDraft(typed))).toEqual(typed);
  });

  it('reads a draft stored before assessments named patients as one without a patient', () => {
    const formWithout: Partial<AssessmentDraft['form']> = { ...draft.form };
    delete formWithout.patient;
    const stored = JSON.stringify({ format: 1, draft: { ...draft, form: formWithout } });
    expect(parseDraft(stored)).toEqual({
      ...draft,
      form: { ...draft.form, patient: emptyPatientForm },
    });
  });

  it('reads a draft stored before step 1 asked for the unit as one without a unit', () => {
    const formWithout: Partial<AssessmentDraft['form']> = { ...draft.form };
    delete formWithout.orgUnitId;
    const stored = JSON.stringify({ format: 1, draft: { ...draft, form: formWithout } });
    expect(parseDraft(stored)).toEqual({ ...draft, form: { ...draft.form, orgUnitId: null } });
  });

  it('keeps a launch from a record system: its id, the values with their dates, what was not read', () => {
    const launched: AssessmentDraft = {
      ...newDraft('u1', 'ASS-MB1X2Y3Z-AB12', draft.form, {
        id: 'launch-1',
        values: [
          { field: 'height', value: 162.5, date: '2026-10-02', filled: true },
          { field: 'weight', value: 80, date: '2025-01-10', filled: false },
          { field: 'age', value: 58, date: null, filled: true },
          { field: 'familyHistory', condition: 'DM2', value: true, date: null, filled: true },
          {
            field: 'diagnosed',
            condition: 'Hypertension',
            value: true,
            date: '2024',
            filled: true,
          },
        ],
        unread: [{ resource: 'Condition', reason: 'Not granted by the record system.' }],
        writeBack: true,
      }),
    };
    const stored = memoryStorage();
    writeDraft(launched, stored);
    expect(readDraftFor('u1', null, stored)).toEqual(launched);
    expect(readDraftFor('u1', null, stored)?.launch?.values[1]).toEqual({
      field: 'weight',
      value: 80,
      date: '2025-01-10',
      filled: false,
    });
  });

  it('reads a draft stored before launches existed as one without a launch', () => {
    const stored = JSON.stringify({ format: 1, draft });
    const parsed = parseDraft(stored);
    expect(parsed).toEqual(draft);
    expect(parsed !== null && 'launch' in parsed).toBe(false);
    expect(newDraft('u1', 'ASS-1-ABCD', emptyForm)).not.toHaveProperty('launch');
  });

  it('drops a draft whose launch is not one', () => {
    const broken = { ...draft, launch: { id: 'launch-1', values: [{ field: 'height' }] } };
    expect(parseDraft(JSON.stringify({ format: 1, draft: broken }))).toBeNull();
  });

  it('drops anything that is not a draft of this format', () => {
    expect(parseDraft(null)).toBeNull();
    expect(parseDraft('not json')).toBeNull();
    expect(parseDraft(JSON.stringify(draft))).toBeNull();
    expect(parseDraft(JSON.stringify({ format: 2, draft }))).toBeNull();
  });

  it('drops a draft whose answers the server would refuse', () => {
    const badSeverity = {
      ...draft,
      form: { ...draft.form, symptoms: { HIV: { fever: { present: true, severity: 'gain' } } } },
    };
    expect(parseDraft(JSON.stringify({ format: 1, draft: badSeverity }))).toBeNull();
  });
});

describe('draft storage', () => {
  it('gives the draft back only to its user, for the same assessment', () => {
    const storage = memoryStorage();
    writeDraft(draft, storage);
    expect(readDraftFor('u1', null, storage)).toEqual(draft);
    expect(readDraftFor('u2', null, storage)).toBeNull();
    expect(readDraftFor('u1', 'a-saved-one', storage)).toBeNull();
  });

  it('clears the draft', () => {
    const storage = memoryStorage();
    writeDraft(newDraft('u1', 'ASS-1-ABCD', emptyForm), storage);
    expect(storage.items.has(draftStorageKey)).toBe(true);
    clearAssessmentDraft(storage);
    expect(storage.items.has(draftStorageKey)).toBe(false);
  });

  it('does not fail when the browser refuses storage', () => {
    const refusing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(() => writeDraft(draft, refusing)).not.toThrow();
    expect(readDraftFor('u1', null, refusing)).toBeNull();
    expect(() => clearAssessmentDraft(refusing)).not.toThrow();
  });
});
