import { lazy, Suspense, useDeferredValue, useEffect, useRef, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Container, Stack, Title } from '@mantine/core';
import { CONDITIONS } from '../../../engine/index.ts';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { AssessmentBadges } from '../../components/assessment/AssessmentBadges.tsx';
import { StepBar } from '../../components/assessment/StepBar.tsx';
import { useAssessmentWizard, type WizardRecord } from '../../hooks/useAssessmentWizard.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useWhenIdle } from '../../hooks/useWhenIdle.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { LoadingText } from '../../components/errors/LoadingText.tsx';
import { OutboxUnlock } from '../../offline/OutboxUnlock.tsx';
import { useOnline } from '../../offline/useOnline.ts';
import { DemographicsStep } from './DemographicsStep.tsx';
import { unreadLines } from '../../assessment/launch.ts';
import {
  canOpenStep,
  firstStep,
  isStepComplete,
  landingStep,
  resultsStep,
} from '../../assessment/steps.ts';
import {
  parseStep,
  wizardSteps,
  type WizardStep,
} from '../../components/assessment/wizardSteps.ts';

// Only the step shown first is part of the wizard's first view; the others load once the
// browser is idle, so that moving on does not wait for them.
const laterSteps = {
  riskFactors: () => import('./RiskFactorsStep.tsx'),
  symptoms: () => import('./SymptomsStep.tsx'),
  management: () => import('./ManagementStep.tsx'),
  results: () => import('./ResultsStep.tsx'),
};
const RiskFactorsStep = lazy(() =>
  laterSteps.riskFactors().then((module) => ({ default: module.RiskFactorsStep })),
);
const SymptomsStep = lazy(() =>
  laterSteps.symptoms().then((module) => ({ default: module.SymptomsStep })),
);
const ManagementStep = lazy(() =>
  laterSteps.management().then((module) => ({ default: module.ManagementStep })),
);
const ResultsStep = lazy(() =>
  laterSteps.results().then((module) => ({ default: module.ResultsStep })),
);

/** Loads the steps not shown yet; one that fails here is loaded again, failing visibly, when opened. */
function loadLaterSteps(): void {
  for (const loadStep of Object.values(laterSteps)) loadStep().catch(() => undefined);
}

/** The screen titles of spec 2.6. */
const stepHeadings: Record<WizardStep, string> = {
  1: 'Patient Demographics',
  2: 'Risk Factor Assessment',
  3: 'Symptom Assessment',
  4: 'Management',
  5: 'Results',
};

const lastConditionIndex = CONDITIONS.length - 1;

/**
 * The five steps of one assessment. The step (and the condition within Symptoms) lives in the URL,
 * so that reload, back and forward keep the user where they were.
 */
export function AssessmentWizard({
  initial,
  onCreated,
  notice = null,
}: {
  initial: WizardRecord;
  onCreated: (assessment: Assessment) => void;
  /** Shown under the heading on every step, such as whether the result went back to the record. */
  notice?: ReactNode;
}) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const wizard = useAssessmentWizard({ user, initial, onCreated });
  const online = useOnline();
  const [searchParams, setSearchParams] = useSearchParams();
  const stepParam = searchParams.get('step');
  const requested = parseStep(stepParam) ?? (wizard.saved !== null ? resultsStep : firstStep);
  const facts = wizard.stepFacts;
  const step = landingStep(facts, requested);
  const conditionParam = searchParams.get('condition');
  const conditionIndex = Math.max(
    0,
    CONDITIONS.findIndex((c) => c === conditionParam),
  );
  usePageTitle(`${stepHeadings[step]} · ${wizard.code}`);
  useWhenIdle(loadLaterSteps);
  // The heading and the step bar are painted first; the step's form renders just after them in
  // the background, on the wizard's first view only.
  const formShown = useDeferredValue(true, false);
  const formStep = formShown ? step : null;

  // A step that cannot be opened (yet, or any more) lands elsewhere; the URL says where.
  useEffect(() => {
    if (stepParam === String(step)) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('step', String(step));
        return next;
      },
      { replace: true },
    );
  }, [stepParam, step, setSearchParams]);

  // A new step replaces the whole screen: start keyboard and screen reader users at its title.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    headingRef.current?.focus();
  }, [step]);

  // Results are computed whenever they are shown, so once shown they exist (the step 5 tick).
  const { markResultsCalculated } = wizard;
  useEffect(() => {
    if (step === resultsStep) markResultsCalculated();
  }, [step, markResultsCalculated]);

  function goToStep(next: WizardStep, conditionIndexOnArrival = 0) {
    const params: Record<string, string> = { step: String(next) };
    if (next === 3) params.condition = CONDITIONS[conditionIndexOnArrival] ?? CONDITIONS[0];
    setSearchParams(params);
  }

  function showCondition(index: number) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('condition', CONDITIONS[index] ?? CONDITIONS[0]);
        return next;
      },
      { replace: true },
    );
  }

  const stepBarItems = wizardSteps.map(({ step: item }) => ({
    step: item,
    reachable: canOpenStep(facts, item),
    complete: isStepComplete(facts, item),
  }));

  return (
    <Container size="lg" px={0}>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
            {stepHeadings[step]}
          </Title>
          <AssessmentBadges code={wizard.code} signedOff={wizard.signedOff} />
        </Stack>
        {notice}
        {/* Offline after a reload, the step 1 records and a save kept for upload need the key. */}
        {!online && <OutboxUnlock />}
        <StepBar items={stepBarItems} current={step} onSelect={goToStep} />
        {/* Around the step only: the heading keeps focus while a later step arrives. */}
        <Suspense fallback={<LoadingText />}>
          {formStep === 1 && (
            <DemographicsStep
              form={wizard.form.demographics}
              parsed={wizard.parsed}
              unitChoice={wizard.unitChoice}
              onChooseUnit={wizard.chooseUnit}
              patient={wizard.form.patient}
              patientProblems={wizard.patientProblems}
              recordNotes={wizard.recordNotes}
              unreadFromRecord={unreadLines(wizard.launch)}
              canContinue={canOpenStep(facts, 2)}
              onChange={(demographics) => wizard.updateForm((form) => ({ ...form, demographics }))}
              onPatientChange={wizard.changePatient}
              onChoosePatient={wizard.choosePatient}
              onContinue={() => goToStep(2)}
            />
          )}
          {formStep === 2 && (
            <RiskFactorsStep
              ruleSet={wizard.rulesShown}
              answers={wizard.form.riskFactors}
              recordNotes={wizard.recordNotes}
              onChange={(riskFactors) => wizard.updateForm((form) => ({ ...form, riskFactors }))}
              onBack={() => goToStep(1)}
              onContinue={() => goToStep(3)}
            />
          )}
          {formStep === 3 && (
            <SymptomsStep
              ruleSet={wizard.rulesShown}
              symptoms={wizard.form.symptoms}
              conditionIndex={conditionIndex}
              onChange={(symptoms) => wizard.updateForm((form) => ({ ...form, symptoms }))}
              onConditionChange={showCondition}
              onBack={() => goToStep(2)}
              onContinue={() => goToStep(4)}
            />
          )}
          {formStep === 4 && (
            <ManagementStep
              ruleSet={wizard.rulesShown}
              management={wizard.form.management}
              recordNotes={wizard.recordNotes.diagnosed}
              onChange={(management) => wizard.updateForm((form) => ({ ...form, management }))}
              onBack={() => goToStep(3, lastConditionIndex)}
              onCalculate={() => goToStep(5)}
            />
          )}
          {formStep === 5 && (
            <ResultsStep
              wizard={wizard}
              role={user.role}
              onBack={() => goToStep(4)}
              onNewAssessment={() => void navigate('/assessments/new')}
            />
          )}
        </Suspense>
      </Stack>
    </Container>
  );
}
