import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DEFAULT_RULE_SET, score, type AssessmentResult } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { useQueryClient } from '@tanstack/react-query';
import { getAssessment, saveNewAssessment, updateAssessment } from '../api/assessments.ts';
import { ApiError } from '../api/client.ts';
import { assessmentStored, queryKeys } from './serverState.ts';
import { useSignOffAssessment } from './useAssessment.ts';
import { notifySuccess } from '../components/assessment/notify.ts';
import { errorMessage } from '../forms.ts';
import { OutboxLockedError, useOutbox } from '../offline/OutboxContext.ts';
import { listRuleSetsOrCopy } from '../offline/ruleSetCopy.ts';
import { offlineTexts } from '../offline/texts.ts';
import { activeRuleSetOf, type ActiveRuleSet } from '../assessment/activeRuleSet.ts';
import { clearAssessmentDraft, writeDraft } from '../assessment/draft.ts';
import { readDraft } from '../assessment/readDraft.ts';
import {
  assessmentBody,
  formFromAssessment,
  isNewPatient,
  isPatientByNumber,
  parseDemographics,
  patientData,
  sameContent,
  type AssessmentForm,
  type ParsedDemographics,
  type PatientForm,
} from '../assessment/form.ts';
import {
  saveFailure,
  signOffFailure,
  wizardTexts,
  type Failure,
} from '../components/assessment/messages.ts';
import {
  patientAgeFor,
  patientProblems,
  withChosenPatient,
  withPatientForm,
} from '../assessment/patient.ts';
import type { StepFacts } from '../assessment/steps.ts';
import { recordNotes, type RecordLaunch } from '../assessment/launch.ts';
import { clinicDay } from '../session/clinicCalendar.ts';
import {
  asksForUnit,
  resolveAssessmentUnit,
  unitMissing,
  type AssessmentUnit,
} from '../assessment/unitChoice.ts';
import { useAssessmentUnits } from './useAssessmentUnits.ts';

/** What the wizard holds: the answers being edited and, once saved, the stored assessment. */
export interface WizardRecord {
  code: string;
  saved: Assessment | null;
  /** The version of `saved` the edits are based on; an update names it (If-Match). */
  baseVersion: number | null;
  resultsCalculated: boolean;
  form: AssessmentForm;
  /** The launch from a record system a new assessment was started from, if it was. */
  launch: RecordLaunch | null;
}

/**
 * The results on screen: the server's for a saved assessment without changes, otherwise computed
 * live in the browser by the shared engine from the current answers, with the rule set the
 * server's saves score with (loading while it is read).
 */
export type DisplayedResults =
  | { status: 'ok'; source: 'saved' | 'live'; result: AssessmentResult }
  | { status: 'loading' }
  | { status: 'failed'; message: string };

function liveResults(
  form: AssessmentForm,
  parsed: ParsedDemographics,
  active: ActiveRuleSet,
): DisplayedResults {
  if (active.status !== 'ok') return active;
  try {
    return {
      status: 'ok',
      source: 'live',
      result: score(patientData(form, parsed), active.ruleSet),
    };
  } catch {
    return { status: 'failed', message: wizardTexts.calculationFailed };
  }
}

/** Step 1's unit select: shown for a new assessment when there are units to choose from. */
export interface UnitChoice {
  /** The units offered; null when step 1 does not ask for the unit. */
  offered: AssessmentUnit[] | null;
  chosenId: string | null;
  /** Asked for and not chosen yet: Continue waits for it. */
  missing: boolean;
  /** The units could not be read and none is known on this device: none can be offered. */
  unavailable: boolean;
}

export interface WizardUser {
  id: string;
  displayName: string;
}

export function useAssessmentWizard({
  user,
  initial,
  onCreated,
}: {
  user: WizardUser;
  initial: WizardRecord;
  /** After the first save, with the stored assessment (the page moves to its address). */
  onCreated: (assessment: Assessment) => void;
}) {
  const [record, setRecord] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [signingOff, setSigningOff] = useState(false);
  const [reloading, setReloading] = useState(false);
  /** The stored assessment changed under the user: the server's message, until reloaded. */
  const [conflict, setConflict] = useState<string | null>(null);
  const [failure, setFailure] = useState<Extract<Failure, { kind: 'failed' }> | null>(null);
  /** Notes the user had typed when a reload replaced them, kept on screen to copy from. */
  const [replacedNotes, setReplacedNotes] = useState<string | null>(null);
  /** Read once as the wizard opens: an activation made meanwhile shows from the next one. */
  const [activeRuleSet, setActiveRuleSet] = useState<ActiveRuleSet>({ status: 'loading' });
  const outbox = useOutbox();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOffMutation = useSignOffAssessment();
  useEffect(() => {
    const controller = new AbortController();
    listRuleSetsOrCopy(controller.signal).then(
      (list) => setActiveRuleSet(activeRuleSetOf(list)),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setActiveRuleSet({
          status: 'failed',
          message: `${wizardTexts.ruleSetLoadFailed} ${errorMessage(error)}`,
        });
      },
    );
    return () => controller.abort();
  }, []);

  const { form, saved } = record;
  const signedOff = saved?.signedOff === true;
  // The unit is chosen for a new assessment only: a saved one keeps the unit it was made at.
  const isNew = saved === null;
  const units = useAssessmentUnits(user.id);
  const unitChoice: UnitChoice = {
    offered: isNew && asksForUnit(units.offered) ? units.offered : null,
    chosenId: form.orgUnitId,
    missing: isNew && unitMissing(form.orgUnitId, units.offered),
    unavailable: isNew && units.unavailable,
  };
  // The unit chosen stays while it is offered; else the one chosen last on this device, if offered.
  useEffect(() => {
    if (!isNew) return;
    setRecord((current) => {
      const orgUnitId = resolveAssessmentUnit(
        current.form.orgUnitId,
        units.offered,
        units.rememberedId,
      );
      return orgUnitId === current.form.orgUnitId
        ? current
        : { ...current, form: { ...current.form, orgUnitId } };
    });
  }, [isNew, units.offered, units.rememberedId]);
  const parsed = useMemo(() => parseDemographics(form.demographics), [form.demographics]);
  const { launch } = record;
  const notes = useMemo(() => recordNotes(launch, form), [launch, form]);
  const patientIssues = useMemo(
    () => patientProblems(form.patient, clinicDay(new Date())),
    [form.patient],
  );
  const savedForm = useMemo(() => (saved === null ? null : formFromAssessment(saved)), [saved]);
  const dirty = savedForm === null || !sameContent(form, savedForm);
  const results = useMemo<DisplayedResults>(
    () =>
      saved !== null && !dirty
        ? { status: 'ok', source: 'saved', result: saved.results }
        : liveResults(form, parsed, activeRuleSet),
    [saved, dirty, form, parsed, activeRuleSet],
  );
  const stepFacts: StepFacts = {
    demographics: parsed.values,
    unitMissing: unitChoice.missing,
    symptoms: form.symptoms,
    management: form.management,
    hasResults: record.resultsCalculated || saved !== null,
    signedOff,
  };

  // The tab keeps what is not saved yet; a saved assessment without changes needs no draft.
  useEffect(() => {
    const assessmentId = saved?.id ?? null;
    if (saved !== null && (signedOff || !dirty)) {
      if (readDraft()?.assessmentId === assessmentId) clearAssessmentDraft();
      return;
    }
    writeDraft({
      userId: user.id,
      code: record.code,
      assessmentId,
      baseVersion: record.baseVersion,
      resultsCalculated: record.resultsCalculated,
      form,
      ...(record.launch === null ? {} : { launch: record.launch }),
    });
  }, [user.id, record, form, saved, signedOff, dirty]);

  /** Changes the answers; ignored once signed off (spec 4). */
  const updateForm = useCallback(
    (change: (current: AssessmentForm) => AssessmentForm) => {
      if (signedOff) return;
      setRecord((current) => ({ ...current, form: change(current.form) }));
    },
    [signedOff],
  );

  /** A patient record chosen in step 1 fills the demographics it knows. */
  const savedCreatedAt = saved?.createdAt ?? null;
  const choosePatient = useCallback(
    (patient: Patient) => {
      const assessmentDay = savedCreatedAt === null ? null : clinicDay(new Date(savedCreatedAt));
      const age = patientAgeFor(patient, assessmentDay, clinicDay(new Date()));
      updateForm((current) => withChosenPatient(current, patient, age));
    },
    [updateForm, savedCreatedAt],
  );

  /** The patient fields as typed; a new patient's date of birth fills Age. */
  const changePatient = useCallback(
    (patient: PatientForm) =>
      updateForm((current) => withPatientForm(current, patient, clinicDay(new Date()))),
    [updateForm],
  );

  /** The unit chosen in step 1, remembered on this device for the next assessment. */
  const { remember: rememberUnit } = units;
  const chooseUnit = useCallback(
    (orgUnitId: string) => {
      rememberUnit(orgUnitId);
      updateForm((current) => ({ ...current, orgUnitId }));
    },
    [rememberUnit, updateForm],
  );

  const markResultsCalculated = useCallback(() => {
    setRecord((current) =>
      current.resultsCalculated ? current : { ...current, resultsCalculated: true },
    );
  }, []);

  /**
   * Takes in the stored assessment; answers typed while a call was out are kept. A new patient
   * the save created is the assessment's patient record from then on, so it is not sent again.
   */
  const acceptStored = useCallback((assessment: Assessment, formSent: AssessmentForm) => {
    setRecord((current) => {
      const storedForm = formFromAssessment(assessment);
      const patientCreated =
        current.form.patient === formSent.patient &&
        (isNewPatient(formSent.patient) || isPatientByNumber(formSent.patient));
      return {
        ...current,
        code: assessment.code ?? current.code,
        saved: assessment,
        baseVersion: assessment.version,
        resultsCalculated: true,
        form:
          current.form === formSent
            ? storedForm
            : patientCreated
              ? { ...current.form, patient: storedForm.patient }
              : current.form,
      };
    });
  }, []);

  async function save(): Promise<void> {
    if (signedOff || saving) return;
    const formSent = form;
    const isUpdate = saved !== null;
    setSaving(true);
    setFailure(null);
    setConflict(null);
    try {
      const assessment =
        saved !== null
          ? await updateAssessment(
              saved.id,
              record.baseVersion ?? saved.version,
              assessmentBody(formSent),
            )
          : await saveNewAssessment(
              { ...assessmentBody(formSent), code: record.code },
              user.displayName,
            );
      acceptStored(assessment, formSent);
      void assessmentStored(queryClient, assessment);
      // A save reopened from the outbox (refused there) has now reached the server.
      if (outbox.entries.some((entry) => entry.draft.code === record.code)) {
        void outbox.forget(record.code);
      }
      notifySuccess(isUpdate ? wizardTexts.updated : wizardTexts.saved);
      if (!isUpdate) {
        clearAssessmentDraft();
        onCreated(assessment);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'network') {
        await keepForUpload(formSent);
        return;
      }
      const outcome = saveFailure(error, isUpdate);
      if (outcome.kind === 'conflict') setConflict(outcome.message);
      else setFailure(outcome);
    } finally {
      setSaving(false);
    }
  }

  /** Without a network the save waits in the outbox; the user goes on to the next patient. */
  async function keepForUpload(formSent: AssessmentForm): Promise<void> {
    try {
      await outbox.queue({
        draft: {
          userId: user.id,
          code: record.code,
          assessmentId: saved?.id ?? null,
          baseVersion: record.baseVersion ?? saved?.version ?? null,
          resultsCalculated: true,
          form: formSent,
        },
        creatorName: user.displayName,
        queuedAt: new Date().toISOString(),
      });
    } catch (error) {
      const message = error instanceof OutboxLockedError ? error.message : errorMessage(error);
      setFailure({ kind: 'failed', title: offlineTexts.queueFailed, message });
      return;
    }
    notifySuccess(offlineTexts.queued);
    clearAssessmentDraft();
    void navigate('/');
  }

  async function signOff(): Promise<boolean> {
    if (saved === null || signedOff || dirty || signingOff) return false;
    setSigningOff(true);
    setFailure(null);
    setConflict(null);
    try {
      const assessment = await signOffMutation.mutateAsync({
        id: saved.id,
        version: record.baseVersion ?? saved.version,
      });
      acceptStored(assessment, form);
      notifySuccess('Assessment signed off.');
      return true;
    } catch (error) {
      const outcome = signOffFailure(error);
      if (outcome.kind === 'conflict') setConflict(outcome.message);
      else setFailure(outcome);
      return false;
    } finally {
      setSigningOff(false);
    }
  }

  /** After a conflict: shows the stored assessment, keeping the user's notes on screen. */
  async function reload(): Promise<void> {
    if (saved === null) return;
    const notesTyped = form.notes;
    setReloading(true);
    try {
      const fresh = await getAssessment(saved.id);
      queryClient.setQueryData(queryKeys.assessment(fresh.id), fresh);
      setRecord((current) => ({
        ...current,
        saved: fresh,
        baseVersion: fresh.version,
        form: formFromAssessment(fresh),
      }));
      setReplacedNotes(notesTyped !== '' && notesTyped !== (fresh.notes ?? '') ? notesTyped : null);
      setConflict(null);
      setFailure(null);
    } catch (error) {
      setFailure({ kind: 'failed', title: wizardTexts.loadFailed, message: errorMessage(error) });
    } finally {
      setReloading(false);
    }
  }

  return {
    code: record.code,
    /**
     * The rules the steps show (names, automatic risk factors, management scores and caps): the
     * active ones once read, the default until then. Results are never computed with a guess (they wait for the active ones).
     */
    rulesShown: activeRuleSet.status === 'ok' ? activeRuleSet.ruleSet : DEFAULT_RULE_SET,
    saved,
    form,
    parsed,
    /** The launch from a record system, and what each field says of the record's values. */
    launch,
    recordNotes: notes,
    unitChoice,
    patientProblems: patientIssues,
    dirty,
    signedOff,
    results,
    stepFacts,
    saving,
    signingOff,
    reloading,
    conflict,
    failure,
    replacedNotes,
    dismissReplacedNotes: () => setReplacedNotes(null),
    updateForm,
    choosePatient,
    changePatient,
    chooseUnit,
    markResultsCalculated,
    save,
    signOff,
    reload,
  };
}

export type AssessmentWizardState = ReturnType<typeof useAssessmentWizard>;
