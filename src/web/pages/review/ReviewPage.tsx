import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { CONDITIONS, ruleSetByVersion, type Condition } from '../../../engine/index.ts';
import type { Assessment } from '../../../shared/api/assessments.ts';
import {
  completeReviews,
  type Review,
  type ReviewedCondition,
} from '../../../shared/api/reviews.ts';
import { NextReviewButton } from '../../components/review/NextReviewButton.tsx';
import { ApiError } from '../../api/client.ts';
import { ConditionReviewCard } from '../../components/review/ConditionReviewCard.tsx';
import { formatLocalDateTime, screenBmi } from '../../format.ts';
import { errorMessage } from '../../forms.ts';
import { useAssessment } from '../../hooks/useAssessment.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { fetchReview, useLockReview, useReview, useSaveReview } from '../../hooks/useReview.ts';
import { safeGreen } from '../../components/assessment/display.ts';
import {
  changeReview,
  chosenReviews,
  lockFailure,
  notReviewedConditions,
  notReviewedLine,
  reviewTexts,
  saveFailure,
  type ReviewFeedback,
} from '../../components/review/reviewDisplay.ts';
import classes from './ReviewPage.module.css';
import { notRecorded } from '../../../shared/display.ts';

interface ReviewState {
  locked: boolean;
  reviewedBy: string | null;
  reviewedAt: string | null;
  rows: ReviewedCondition[];
}

/**
 * Spec section 4: an unreviewed condition defaults to not agreed, without comments; it is shown
 * as Not reviewed, with neither Agree nor Disagree chosen.
 */
const defaultReview: ReviewState = {
  locked: false,
  reviewedBy: null,
  reviewedAt: null,
  rows: completeReviews([]),
};

function reviewState(review: Review): ReviewState {
  return {
    locked: review.locked,
    reviewedBy: review.reviewedBy,
    reviewedAt: review.reviewedAt,
    rows: completeReviews(review.reviews),
  };
}

/** Spec section 8: a failed review load is only logged, and the default review is shown. */
function logReviewLoadFailure(error: unknown) {
  // The code says why without putting any patient data in the console.
  console.error('Failed to load doctor review', error instanceof ApiError ? error.code : error);
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} component="div">
        {children}
      </Text>
    </div>
  );
}

function PatientSummary({ assessment }: { assessment: Assessment }) {
  const { demographics, patient } = assessment;
  return (
    <Card withBorder component="section" aria-labelledby="review-patient" padding="md" radius="md">
      <Title order={2} size="h3" id="review-patient" mb="sm">
        Patient
      </Title>
      <SimpleGrid cols={{ base: 2, sm: patient === null ? 4 : 5 }} spacing="md">
        {patient !== null && (
          <Fact label="Patient record">
            <Anchor
              component={Link}
              to={`/patients/${encodeURIComponent(patient.id)}`}
              style={{ overflowWrap: 'anywhere' }}
            >
              {patient.number}
            </Anchor>
            {patient.name !== null && (
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {patient.name}
              </Text>
            )}
          </Fact>
        )}
        <Fact label="Age">{demographics.age ?? notRecorded}</Fact>
        <Fact label="Gender">{demographics.gender ?? notRecorded}</Fact>
        <Fact label="BMI">{screenBmi(demographics.bmi)}</Fact>
        <Fact label="Status">
          <Badge color={assessment.assessmentComplete ? safeGreen : 'yellow.4'} autoContrast>
            {assessment.assessmentComplete ? 'Complete' : 'Incomplete'}
          </Badge>
        </Fact>
      </SimpleGrid>
    </Card>
  );
}

function ReviewHeader({ assessment, review }: { assessment: Assessment; review: ReviewState }) {
  return (
    <Stack gap="xs">
      <Anchor
        component={Link}
        to={`/assessments/${encodeURIComponent(assessment.id)}`}
        w="fit-content"
      >
        Back to Results
      </Anchor>
      <Group gap="sm">
        <Title order={1}>Doctor Review</Title>
        {review.locked && (
          <Badge color="grape.9" size="lg" autoContrast>
            Locked
          </Badge>
        )}
      </Group>
      <Group gap="lg" style={{ rowGap: 4 }}>
        <Text size="sm">
          Assessment ID:{' '}
          <Text span ff="monospace">
            {assessment.id}
          </Text>
        </Text>
        <Text size="sm">
          Code:{' '}
          <Text span ff="monospace">
            {assessment.code ?? notRecorded}
          </Text>
        </Text>
      </Group>
      {review.reviewedBy !== null && (
        <Text size="sm" c="dimmed">
          {review.locked ? 'Finalized' : 'Last saved'} by {review.reviewedBy}
          {review.reviewedAt !== null && ` on ${formatLocalDateTime(review.reviewedAt)}`}
        </Text>
      )}
    </Stack>
  );
}

function FeedbackAlert({ feedback, onClose }: { feedback: ReviewFeedback; onClose: () => void }) {
  return (
    <Alert
      color={feedback.success ? safeGreen : 'red'}
      title={feedback.title}
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={onClose}
    >
      {feedback.detail}
    </Alert>
  );
}

/** Spec 2.7: a doctor agrees or disagrees with each condition's result, then locks the review. */
export function ReviewPage() {
  usePageTitle('Doctor Review');
  const { id = '' } = useParams();
  // Another assessment (Next Review) starts afresh: nothing of this one's review may carry over.
  return <AssessmentReview key={id} id={id} />;
}

function AssessmentReview({ id }: { id: string }) {
  const assessmentQuery = useAssessment(id);
  const reviewQuery = useReview(id);
  const saveMutation = useSaveReview(id);
  const lockMutation = useLockReview(id);
  const queryClient = useQueryClient();
  // The rows being edited: taken once from the review as the server has it when the page opens.
  const [review, setReview] = useState<ReviewState | null>(null);
  const [busy, setBusy] = useState<'saving' | 'locking' | null>(null);
  const [feedback, setFeedback] = useState<ReviewFeedback | null>(null);
  const [confirmOpened, confirm] = useDisclosure(false);
  // Set by this page's own Finalize: the keyboard then moves on to the next review.
  const [finalizedHere, setFinalizedHere] = useState(false);

  const reviewError = reviewQuery.error;
  useEffect(() => {
    if (reviewError !== null) logReviewLoadFailure(reviewError);
  }, [reviewError]);
  const reviewSettled = reviewQuery.isFetchedAfterMount && !reviewQuery.isFetching;
  const assessmentFresh = assessmentQuery.isFetchedAfterMount && assessmentQuery.isSuccess;
  if (review === null && reviewSettled && assessmentFresh) {
    setReview(
      reviewQuery.data === undefined || reviewQuery.isError
        ? defaultReview
        : reviewState(reviewQuery.data),
    );
  }

  const reloadReview = useCallback(async () => {
    try {
      setReview(reviewState(await fetchReview(queryClient, id)));
    } catch (error) {
      logReviewLoadFailure(error);
    }
  }, [queryClient, id]);

  const changeRow = useCallback(
    (
      condition: Condition,
      change: Partial<Pick<ReviewedCondition, 'agreed' | 'comments' | 'doctorStatus'>>,
    ) => {
      setReview((current) =>
        current === null
          ? current
          : {
              ...current,
              rows: current.rows.map((row) =>
                row.condition === condition ? changeReview(row, change) : row,
              ),
            },
      );
    },
    [],
  );

  async function save(rows: ReviewedCondition[]) {
    setBusy('saving');
    setFeedback(null);
    try {
      // Only the conditions the doctor chose are sent; the others stay not reviewed.
      setReview(reviewState(await saveMutation.mutateAsync(chosenReviews(rows))));
      setFeedback({ success: true, title: reviewTexts.saved });
    } catch (error) {
      const failure = saveFailure(error);
      setFeedback(failure);
      if (failure.reload === true) await reloadReview();
    } finally {
      setBusy(null);
    }
  }

  async function finalize(rows: ReviewedCondition[]) {
    confirm.close();
    setBusy('locking');
    setFeedback(null);
    try {
      // The current rows are saved and locked in one step, so nothing typed since the last save is lost.
      setReview(reviewState(await lockMutation.mutateAsync(chosenReviews(rows))));
      setFeedback({ success: true, title: reviewTexts.locked });
      setFinalizedHere(true);
    } catch (error) {
      const failure = lockFailure(error);
      setFeedback(failure);
      if (failure.reload === true) await reloadReview();
    } finally {
      setBusy(null);
    }
  }

  const assessment = assessmentQuery.data;
  const failedFirst = assessmentQuery.isError && !assessmentQuery.isFetching && review === null;
  if (failedFirst) {
    const message = errorMessage(assessmentQuery.error);
    return (
      <Container size="lg">
        <Alert color="red" title={reviewTexts.loadFailed}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {message === reviewTexts.loadFailed ? reviewTexts.loadFailedRetry : message}
            </Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                void assessmentQuery.refetch();
                void reviewQuery.refetch();
              }}
            >
              Try Again
            </Button>
          </Stack>
        </Alert>
      </Container>
    );
  }

  if (review === null || assessment === undefined) {
    return (
      <Container size="lg">
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{reviewTexts.loading}</Text>
        </Group>
      </Container>
    );
  }

  const results = [...assessment.results.conditions].sort(
    (a, b) => CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition),
  );
  const ruleSet = ruleSetByVersion(assessment.results.ruleSetVersion);
  const locked = review.locked;
  const notReviewed = notReviewedConditions(
    results.map((result) => result.condition),
    review.rows,
  );

  return (
    <Container size="lg">
      <Stack gap="lg">
        <ReviewHeader assessment={assessment} review={review} />
        {locked && <Alert color="grape" title={reviewTexts.finalized} />}
        <PatientSummary assessment={assessment} />

        {results.length === 0 ? (
          <Text>{reviewTexts.noResults}</Text>
        ) : (
          <>
            {results.map((result) => {
              const row = review.rows.find(
                (candidate) => candidate.condition === result.condition,
              ) ?? {
                condition: result.condition,
                decided: false,
                agreed: false,
                comments: '',
                doctorStatus: null,
              };
              return (
                <ConditionReviewCard
                  key={result.condition}
                  ruleSet={ruleSet}
                  result={result}
                  symptoms={assessment.symptoms[result.condition]}
                  management={assessment.management[result.condition]}
                  review={row}
                  locked={locked}
                  onChange={(change) => changeRow(result.condition, change)}
                />
              );
            })}

            <Paper
              component="section"
              aria-label="Review actions"
              className={classes.actionBar}
              withBorder
              shadow="md"
              radius="md"
              p="sm"
            >
              <Stack gap="xs">
                {feedback !== null && (
                  <FeedbackAlert feedback={feedback} onClose={() => setFeedback(null)} />
                )}
                <Group justify="space-between" gap="sm">
                  <Text size="sm" fw={notReviewed.length === 0 ? 400 : 600}>
                    {notReviewedLine(notReviewed)}
                  </Text>
                  <Group gap="sm">
                    {locked && <NextReviewButton focusOnMount={finalizedHere} />}
                    <Button
                      onClick={() => void save(review.rows)}
                      loading={busy === 'saving'}
                      disabled={locked || busy !== null}
                    >
                      Save Review
                    </Button>
                    <Button
                      color="red.9"
                      variant="outline"
                      onClick={confirm.open}
                      loading={busy === 'locking'}
                      disabled={locked || busy !== null}
                    >
                      Finalize Doctor Review
                    </Button>
                  </Group>
                </Group>
              </Stack>
            </Paper>
          </>
        )}
      </Stack>

      <Modal opened={confirmOpened} onClose={confirm.close} title="Finalize Doctor Review" centered>
        <Stack gap="md">
          <Text>{reviewTexts.lockConfirm}</Text>
          {notReviewed.length > 0 && (
            // Locked, a condition left untouched stays not reviewed for good.
            <Text fw={600}>{notReviewedLine(notReviewed)}</Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={confirm.close}>
              Cancel
            </Button>
            <Button color="red.9" onClick={() => void finalize(review.rows)}>
              Lock Review
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}
