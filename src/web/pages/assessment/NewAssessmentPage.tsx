import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { generateAssessmentCode } from '../../../engine/index.ts';
import type { WizardRecord } from '../../hooks/useAssessmentWizard.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { AssessmentWizard } from './AssessmentWizard.tsx';
import { newDraft, readDraftFor, writeDraft, type AssessmentDraft } from './draft.ts';
import { emptyForm } from './form.ts';

function startDraft(userId: string): AssessmentDraft {
  return newDraft(userId, generateAssessmentCode(Date.now(), Math.random), emptyForm);
}

/** The assessment in progress in this tab, or a fresh one when there is none. */
function NewAssessmentWizard({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const [initial] = useState<WizardRecord>(() => {
    const draft = readDraftFor(userId, null) ?? startDraft(userId);
    return {
      code: draft.code,
      saved: null,
      baseVersion: null,
      resultsCalculated: draft.resultsCalculated,
      form: draft.form,
    };
  });
  return (
    <AssessmentWizard
      initial={initial}
      onCreated={(assessment) =>
        void navigate(`/assessments/${encodeURIComponent(assessment.id)}`, { replace: true })
      }
    />
  );
}

/**
 * `/assessments/new` starts a new assessment: all data reset, step 1, a new code (spec 4). The
 * wizard then keeps `?step=` in the address, and an address with a step restores the assessment
 * in progress, so that reloading the tab loses nothing.
 */
export function NewAssessmentPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const starting = !searchParams.has('step');

  useEffect(() => {
    if (!starting) return;
    writeDraft(startDraft(user.id));
    void navigate({ search: '?step=1' }, { replace: true });
  }, [starting, user.id, navigate]);

  return starting ? null : <NewAssessmentWizard userId={user.id} />;
}
