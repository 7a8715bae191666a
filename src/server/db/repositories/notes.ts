import { sql } from 'kysely';
import { withinScope, type Scope } from '../../auth/scope.ts';
import { CONDITIONS, type Condition } from '../../../engine/index.ts';
import type { Executor } from './executor.ts';

/** Per condition: 1 when the assessment records it diagnosed, 0 when not, null when unanswered. */
export type DiagnosedColumns = Record<`diagnosed_${Condition}`, number | null>;

export interface AssessmentNoteRow extends DiagnosedColumns {
  assessment_id: string;
  assessment_code: string | null;
  text: string;
}

export interface ReviewCommentRow extends DiagnosedColumns {
  review_id: string;
  assessment_id: string;
  assessment_code: string | null;
  condition: string;
  text: string;
}

/** One row per assessment with its management answers pivoted into diagnosed_{condition}. */
function diagnosedByAssessment(db: Executor) {
  let query = db.selectFrom('management').select('assessment_id');
  for (const condition of CONDITIONS) {
    query = query.select(
      sql<
        number | null
      >`max(case when condition = ${condition} then case when diagnosed then 1 else 0 end end)`.as(
        `diagnosed_${condition}`,
      ),
    );
  }
  return query.groupBy('assessment_id');
}

const diagnosedColumns = CONDITIONS.map((c) =>
  sql<number | null>`${sql.ref(`diagnosis.diagnosed_${c}`)}`.as(`diagnosed_${c}`),
);

/** The non-empty notes and review comments of live assessments (spec 7.2), streamed. */
export const notesRepository = {
  async countNotes(db: Executor, scope: Scope): Promise<number> {
    const [notes, comments] = await Promise.all([
      db
        .selectFrom('assessments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('deleted_at', 'is', null)
        .$call(withinScope('org_unit_id', scope))
        .where('notes', 'is not', null)
        .where('notes', '<>', '')
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('doctor_reviews')
        .innerJoin('assessments', 'assessments.id', 'doctor_reviews.assessment_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('assessments.deleted_at', 'is', null)
        .$call(withinScope('assessments.org_unit_id', scope))
        .where('doctor_reviews.comments', '<>', '')
        .executeTakeFirstOrThrow(),
    ]);
    return Number(notes.n) + Number(comments.n);
  },

  streamAssessmentNotes(db: Executor, scope: Scope): AsyncIterableIterator<AssessmentNoteRow> {
    return db
      .selectFrom('assessments')
      .leftJoin(
        diagnosedByAssessment(db).as('diagnosis'),
        'diagnosis.assessment_id',
        'assessments.id',
      )
      .select([
        'assessments.id as assessment_id',
        'assessments.assessment_code',
        'assessments.notes as text',
      ])
      .select(diagnosedColumns)
      .where('assessments.deleted_at', 'is', null)
      .$call(withinScope('assessments.org_unit_id', scope))
      .where('assessments.notes', 'is not', null)
      .where('assessments.notes', '<>', '')
      .orderBy('assessments.created_at')
      .orderBy('assessments.id')
      .stream(1000) as AsyncIterableIterator<AssessmentNoteRow>;
  },

  streamReviewComments(db: Executor, scope: Scope): AsyncIterableIterator<ReviewCommentRow> {
    return db
      .selectFrom('doctor_reviews')
      .innerJoin('assessments', 'assessments.id', 'doctor_reviews.assessment_id')
      .leftJoin(
        diagnosedByAssessment(db).as('diagnosis'),
        'diagnosis.assessment_id',
        'assessments.id',
      )
      .select([
        'doctor_reviews.id as review_id',
        'doctor_reviews.assessment_id',
        'assessments.assessment_code',
        'doctor_reviews.condition',
        'doctor_reviews.comments as text',
      ])
      .select(diagnosedColumns)
      .where('assessments.deleted_at', 'is', null)
      .$call(withinScope('assessments.org_unit_id', scope))
      .where('doctor_reviews.comments', '<>', '')
      .orderBy('doctor_reviews.assessment_id')
      .orderBy('doctor_reviews.condition')
      .stream(1000) as AsyncIterableIterator<ReviewCommentRow>;
  },
};
