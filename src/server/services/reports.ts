import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  RISK_STATUS_LABELS,
  type ConditionResult,
  type LastDoctorVisit,
  type RiskStatus,
  type RuleSet,
  ruleSetByVersion,
} from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AssessmentReport, ReportSection } from '../../shared/api/exports.ts';
import type { ReviewedCondition } from '../../shared/api/reviews.ts';
import {
  formatBmi,
  formatComorbidity,
  formatScore,
  lastDoctorVisitLabels,
  notRecorded,
  prescriptionDurationLabels,
} from '../../shared/display.ts';
import { formatBmiChange, formatScoreChange, sinceLast } from '../../shared/since-last.ts';
import { productTexts } from '../../shared/texts.ts';
import { can } from '../auth/policy.ts';
import type { AppContext } from '../context.ts';
import { reviewsRepository } from '../db/repositories/reviews.ts';
import { presentReview } from '../presenters/review.ts';
import { localDate } from '../time.ts';
import type { Requester } from '../auth/requester.ts';
import { getAssessment } from './assessments.ts';
import { recordAudit } from './audit.ts';

const reportDisclaimer = [
  'The scores in this report support and do not replace clinical judgement.',
  'They are rule-based triage scores, not calibrated probabilities of disease: every finding must be interpreted by a qualified healthcare professional together with the history, examination and confirmatory tests.',
];

/** Where a report is made: its time and the clinic's time zone, in which dates are shown. */
export interface ReportClock {
  generatedAt: Date;
  timeZone: string;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD HH:mm' in the clinic's zone; formatters are cached as a bulk report makes many. */
export function formatDateTime(instant: string | Date, timeZone: string): string {
  let format = dateTimeFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormats.set(timeZone, format);
  }
  return format.format(new Date(instant)).replace(', ', ' ');
}

function yesNo(answer: boolean | undefined): string {
  if (answer === undefined) return notRecorded;
  return answer ? 'Yes' : 'No';
}

/** Who signed the assessment off and when, or that no one has yet. */
export function signOffLine(
  signedOffBy: string | null,
  signedOffAt: string | null,
  zone: string,
): string {
  if (signedOffAt === null) return 'Sign-off: Not signed off';
  return `Sign-off: Signed off by ${signedOffBy ?? 'unknown'} on ${formatDateTime(signedOffAt, zone)}`;
}

function assessmentSection(assessment: Assessment, clock: ReportClock): ReportSection {
  const zone = clock.timeZone;
  return {
    heading: 'Assessment',
    lines: [
      `Assessment code: ${assessment.code ?? 'None'}`,
      `Assessment ID: ${assessment.id}`,
      `Created: ${formatDateTime(assessment.createdAt, zone)}${
        assessment.createdBy === null ? '' : ` by ${assessment.createdBy}`
      }`,
      `Last updated: ${formatDateTime(assessment.updatedAt, zone)}`,
      `Status: ${assessment.assessmentComplete ? 'Complete' : 'Incomplete'}`,
      signOffLine(assessment.signedOffBy, assessment.signedOffAt, zone),
      `Rule set: ${ruleSetByVersion(assessment.results.ruleSetVersion).name}`,
    ],
  };
}

/** The patient record the assessment names: who the report is about. */
function patientSection(patient: NonNullable<Assessment['patient']>): ReportSection {
  return {
    heading: 'Patient',
    lines: [`Patient number: ${patient.number}`, `Name: ${patient.name ?? notRecorded}`],
  };
}

function demographicsSection(assessment: Assessment): ReportSection {
  const { age, gender, height, weight, bmi } = assessment.demographics;
  return {
    heading: 'Patient Demographics',
    lines: [
      `Age: ${age === undefined ? notRecorded : `${age} years`}`,
      `Gender: ${gender ?? notRecorded}`,
      `Height: ${height === undefined ? notRecorded : `${height} cm`}`,
      `Weight: ${weight === undefined ? notRecorded : `${weight} kg`}`,
      `BMI: ${bmi > 0 ? formatBmi(bmi) : 'Not calculated (height or weight not recorded)'}`,
    ],
  };
}

type SymptomAnswers = Record<string, { present: boolean; severity?: string } | undefined>;

function symptomsSection(assessment: Assessment, ruleSet: RuleSet): ReportSection {
  const lines: string[] = [];
  for (const condition of CONDITIONS) {
    const rules = ruleSet.conditions[condition];
    const name = CONDITION_DISPLAY_NAMES[condition];
    if (rules.symptoms.length === 0) {
      lines.push(`${name}: asymptomatic condition, no symptoms assessed`);
      continue;
    }
    const answers: SymptomAnswers = assessment.symptoms[condition] ?? {};
    const answered = rules.symptoms.flatMap((symptom) => {
      const answer = answers[symptom.key];
      if (answer === undefined) return [];
      if (!answer.present) return [`  ${symptom.name}: No`];
      if (symptom.scale === 'weightChange' && answer.severity !== undefined) {
        return [
          `  ${symptom.name}: Yes, weight ${answer.severity}${answer.severity === 'gain' ? ' (not counted)' : ''}`,
        ];
      }
      // A severity given for a symptom without a scale is ignored by the scoring (decisions 3).
      const severity =
        symptom.scale === 'severity' && answer.severity !== undefined ? `, ${answer.severity}` : '';
      return [`  ${symptom.name}: Yes${severity}`];
    });
    lines.push(answered.length === 0 ? `${name}: no symptoms recorded` : `${name}:`, ...answered);
  }
  return { heading: 'Symptoms', lines };
}

function riskFactorsSection(assessment: Assessment): ReportSection {
  const { smoking, familyHistory, householdTBExposure } = assessment.riskFactors;
  return {
    heading: 'Risk Factors',
    lines: [
      `Smoking (current or within 5 years): ${yesNo(smoking)}`,
      ...FAMILY_HISTORY_CONDITIONS.map(
        (condition) =>
          `Family history of ${CONDITION_DISPLAY_NAMES[condition]}: ${yesNo(familyHistory?.[condition])}`,
      ),
      `Household TB exposure: ${yesNo(householdTBExposure)}`,
    ],
  };
}

function managementSection(assessment: Assessment): ReportSection {
  return {
    heading: 'Management',
    lines: CONDITIONS.map((condition) => {
      const name = CONDITION_DISPLAY_NAMES[condition];
      const answer = assessment.management[condition];
      if (answer === undefined) return `${name}: ${notRecorded}`;
      if (!answer.diagnosed) return `${name}: Not diagnosed`;
      const visit =
        answer.lastDoctorVisit === undefined
          ? notRecorded
          : lastDoctorVisitLabels[answer.lastDoctorVisit];
      const prescription =
        answer.prescriptionDuration === undefined
          ? notRecorded
          : prescriptionDurationLabels[answer.prescriptionDuration];
      return `${name}: Diagnosed; last doctor visit: ${visit}; current prescription: ${prescription}`;
    }),
  };
}

function conditionResultLines(result: ConditionResult): string[] {
  const { components, details } = result;
  const management =
    details.managementCap === undefined
      ? formatScore(components.managementScore)
      : `${formatScore(components.managementScore)} (cap ${details.managementCap})`;
  const lines = [
    `${CONDITION_DISPLAY_NAMES[result.condition]}: ${RISK_STATUS_LABELS[result.riskStatus]}`,
    `  Total score ${formatScore(result.totalScore)}; factor count ${result.factorCount} against a threshold of ${details.threshold}`,
    `  Breakdown: symptoms ${formatScore(components.symptomScore)}, risk factors ${formatScore(components.riskFactorScore)}, comorbidity ${formatComorbidity(components.comorbidityScore)}, management ${management}`,
  ];
  if (details.symptoms.length > 0) {
    const symptoms = details.symptoms.map(
      (s) => `${s.name} ${s.weight} x ${s.severityMultiplier} = ${formatScore(s.contribution)}`,
    );
    lines.push(`  Symptoms: ${symptoms.join('; ')}`);
  }
  if (details.riskFactors.length > 0) {
    const factors = details.riskFactors.map((f) => `${f.name} (${f.weight})`);
    lines.push(`  Risk factors: ${factors.join('; ')}`);
  }
  lines.push(`  Interpretation: ${result.interpretation}`);
  return lines;
}

function resultsSection(assessment: Assessment): ReportSection {
  return {
    heading: 'Results',
    lines: [
      `Overall total score: ${formatScore(assessment.results.totalScore)}`,
      ...assessment.results.conditions.flatMap(conditionResultLines),
    ],
  };
}

/** A rule set's name, or its version for one this build does not know. */
function ruleSetName(version: string): string {
  try {
    return ruleSetByVersion(version).name;
  } catch {
    return `version ${version}`;
  }
}

function statusLabel(status: RiskStatus | null): string {
  return status === null ? 'Not assessed' : RISK_STATUS_LABELS[status];
}

function bmiReading(bmi: number): string {
  return bmi > 0 ? formatBmi(bmi) : 'not calculated';
}

/**
 * What changed since the patient's previous assessment: when it was made, the BMI then and now,
 * and per condition the status then and now with the change in total score.
 */
function sinceLastSection(
  assessment: Assessment,
  previous: NonNullable<Assessment['previousAssessment']>,
  clock: ReportClock,
): ReportSection {
  const change = sinceLast(
    {
      bmi: assessment.demographics.bmi,
      results: assessment.results.conditions.map(({ condition, riskStatus, totalScore }) => ({
        condition,
        riskStatus,
        totalScore,
      })),
    },
    previous,
  );
  const lines = [
    `Previous assessment: ${formatDateTime(change.previousDate, clock.timeZone)} (${change.previousCode ?? change.previousId})`,
  ];
  const ruleSetNow = assessment.results.ruleSetVersion;
  if (change.previousRuleSetVersion !== ruleSetNow) {
    lines.push(
      `Rule set then: ${ruleSetName(change.previousRuleSetVersion)}; now: ${ruleSetName(ruleSetNow)} (scores of different rule sets do not compare)`,
    );
  }
  lines.push(
    `BMI: ${bmiReading(change.bmiThen)} then, ${bmiReading(change.bmiNow)} now${
      change.bmiChange === null ? '' : ` (${formatBmiChange(change.bmiChange)})`
    }`,
  );
  for (const condition of change.conditions) {
    const statuses =
      condition.statusThen === condition.statusNow
        ? `${statusLabel(condition.statusNow)} then and now`
        : `${statusLabel(condition.statusThen)} then, ${statusLabel(condition.statusNow)} now`;
    const score =
      condition.scoreChange === null
        ? ''
        : `; total score ${formatScoreChange(condition.scoreChange)}`;
    lines.push(`${CONDITION_DISPLAY_NAMES[condition.condition]}: ${statuses}${score}`);
  }
  return { heading: 'Since the last assessment', lines };
}

/** What to do per status, most urgent first; a low risk needs only routine screening. */
const recommendations: ReadonlyArray<[RiskStatus, string]> = [
  ['TRUE', 'clinical evaluation and confirmatory testing recommended.'],
  ['DIAGNOSED', 'continue management and regular follow-up.'],
  ['MAYBE', 'monitoring and follow-up screening advised.'],
  ['UNKNOWN', 'record the missing demographics to complete the risk assessment.'],
];

const overdueVisits: ReadonlySet<string> = new Set<LastDoctorVisit>(['never', '>12months']);

function recommendationsSection(assessment: Assessment): ReportSection {
  const conditions = assessment.results.conditions;
  const lines: string[] = [];
  for (const [status, advice] of recommendations) {
    for (const result of conditions.filter((c) => c.riskStatus === status)) {
      const name = CONDITION_DISPLAY_NAMES[result.condition];
      let line = `${name} (${RISK_STATUS_LABELS[status]}): ${advice}`;
      const visit = assessment.management[result.condition]?.lastDoctorVisit;
      if (status === 'DIAGNOSED' && visit !== undefined && overdueVisits.has(visit)) {
        line += ` Last doctor visit: ${lastDoctorVisitLabels[visit].toLowerCase()}; arrange a review.`;
      }
      lines.push(line);
    }
  }
  const low = conditions
    .filter((c) => c.riskStatus === 'FALSE')
    .map((c) => CONDITION_DISPLAY_NAMES[c.condition]);
  if (lines.length === 0) {
    lines.push('No condition requires attention: routine screening as usual.');
  } else if (low.length > 0) {
    lines.push(`Routine screening for ${low.join(', ')}.`);
  }
  return { heading: 'Recommendations', lines };
}

function notesSection(notes: string | null): ReportSection {
  const text = notes?.trim() ?? '';
  return {
    heading: 'Clinical Notes',
    lines: text === '' ? ['No clinical notes recorded.'] : text.split(/\r\n|\r|\n/),
  };
}

/** What a report shows of an assessment's doctor review. */
export interface ReportReview {
  locked: boolean;
  /** null before the first save. */
  reviewedBy: string | null;
  reviewedAt: string | null;
  /** The stored rows; a condition without one was not reviewed. */
  reviews: readonly (Pick<ReviewedCondition, 'decided' | 'agreed' | 'comments' | 'doctorStatus'> & {
    condition: string;
  })[];
}

/** Per condition Agree or Disagree (with the status the doctor would give), or Not reviewed. */
function doctorReviewSection(
  assessment: Assessment,
  review: ReportReview,
  clock: ReportClock,
): ReportSection {
  const when =
    review.reviewedAt === null ? '' : ` on ${formatDateTime(review.reviewedAt, clock.timeZone)}`;
  const lines = [
    review.reviewedBy === null
      ? 'Doctor review: Not reviewed'
      : `Doctor review: ${review.locked ? 'Finalized' : 'Saved, not finalized'} by ${review.reviewedBy}${when}`,
  ];
  for (const { condition } of assessment.results.conditions) {
    const row = review.reviews.find((r) => r.condition === condition);
    const name = CONDITION_DISPLAY_NAMES[condition];
    if (row === undefined || !row.decided) {
      lines.push(`${name}: Not reviewed`);
      continue;
    }
    const status =
      !row.agreed && row.doctorStatus !== null
        ? `; the doctor would give ${RISK_STATUS_LABELS[row.doctorStatus]}`
        : '';
    lines.push(`${name}: ${row.agreed ? 'Agree' : 'Disagree'}${status}`);
    const comments = row.comments.trim();
    if (comments !== '') lines.push(`  Comments: ${comments.split(/\r\n|\r|\n/).join(' ')}`);
  }
  return { heading: 'Doctor Review', lines };
}

export const disclaimerSection: ReportSection = { heading: 'Disclaimer', lines: reportDisclaimer };

/**
 * The sections of spec 9.5 for one assessment, without the disclaimer that ends every report.
 * An assessment that names a patient record adds the patient after the assessment's own details
 * and, when the patient was assessed before, what changed since after the results; an assessment
 * that names none has the spec's sections alone. With a review (for a reader who may see doctor
 * reviews), the doctor's judgement per condition follows the results.
 */
export function assessmentSections(
  assessment: Assessment,
  clock: ReportClock,
  review?: ReportReview,
): ReportSection[] {
  const ruleSet = ruleSetByVersion(assessment.results.ruleSetVersion);
  const { patient, previousAssessment } = assessment;
  return [
    assessmentSection(assessment, clock),
    ...(patient === null ? [] : [patientSection(patient)]),
    demographicsSection(assessment),
    symptomsSection(assessment, ruleSet),
    riskFactorsSection(assessment),
    managementSection(assessment),
    resultsSection(assessment),
    ...(previousAssessment === null
      ? []
      : [sinceLastSection(assessment, previousAssessment, clock)]),
    ...(review === undefined ? [] : [doctorReviewSection(assessment, review, clock)]),
    recommendationsSection(assessment),
    notesSection(assessment.notes),
  ];
}

/** The opening lines of every report: which system made it, and when. */
export function reportInfoSection(clock: ReportClock, extraLines: string[] = []): ReportSection {
  return {
    heading: 'Report',
    lines: [
      `${productTexts.systemName} ${productTexts.systemVersion}`,
      `Generated: ${formatDateTime(clock.generatedAt, clock.timeZone)} (times in ${clock.timeZone})`,
      ...extraLines,
      productTexts.authorizedOnly,
    ],
  };
}

export function assessmentReport(
  assessment: Assessment,
  clock: ReportClock,
  review?: ReportReview,
): AssessmentReport {
  const date = localDate(clock.generatedAt, clock.timeZone);
  return {
    title: 'Comprehensive Assessment Report',
    sections: [
      reportInfoSection(clock),
      ...assessmentSections(assessment, clock, review),
      disclaimerSection,
    ],
    fileName: `comprehensive-assessment-${assessment.code ?? assessment.id}-${date}.txt`,
  };
}

export function renderSections(sections: readonly ReportSection[]): string {
  return sections
    .map(
      (section) =>
        `${section.heading.toUpperCase()}\n${'-'.repeat(section.heading.length)}\n${section.lines.join('\n')}\n\n`,
    )
    .join('');
}

export function renderTitle(title: string): string {
  return `${title}\n${'='.repeat(title.length)}\n\n`;
}

export function renderReportText(report: Pick<AssessmentReport, 'title' | 'sections'>): string {
  return `${renderTitle(report.title)}${renderSections(report.sections)}`.trimEnd() + '\n';
}

/**
 * One assessment's report, for a user who may read it; the download is audited as an export. The
 * doctor review is in it for those who may read reviews. An assessment outside the requester's
 * scope is answered 404, as if it did not exist.
 */
export async function loadAssessmentReport(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<AssessmentReport> {
  const assessment = await getAssessment(context, requester, id);
  const review = can(requester.user.role, 'review.view')
    ? presentReview(assessment.id, await reviewsRepository.list(context.database.db, assessment.id))
    : undefined;
  const now = context.now();
  await recordAudit(context.database.db, {
    at: now,
    actor: requester.user,
    action: 'export',
    target: { type: 'assessment', id: assessment.id },
    address: requester.address,
  });
  return assessmentReport(
    assessment,
    { generatedAt: now, timeZone: context.config.timeZone },
    review,
  );
}
