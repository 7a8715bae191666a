import type { SYMPTOM_CATALOGUE } from './symptom-catalogue.ts';
import type {
  Condition,
  FamilyHistoryCondition,
  Gender,
  LastDoctorVisit,
  PrescriptionDuration,
  Severity,
  SymptomScale,
  WeightChange,
} from './types.ts';

/**
 * The in-app patient data of spec 3.2, the input of `score`. Every part is optional: a missing
 * part means the question was not answered.
 */
export interface PatientData {
  readonly demographics?: Demographics;
  readonly riskFactors?: RiskFactorAnswers;
  readonly symptoms?: SymptomAnswers;
  readonly management?: ManagementAnswers;
}

export interface Demographics {
  /** Whole years. */
  readonly age?: number;
  readonly gender?: Gender;
  /** Centimetres. */
  readonly height?: number;
  /** Kilograms. */
  readonly weight?: number;
}

export interface RiskFactorAnswers {
  readonly smoking?: boolean;
  readonly familyHistory?: { readonly [C in FamilyHistoryCondition]?: boolean };
  readonly householdTBExposure?: boolean;
}

/** The severity a symptom accepts: loss or gain for a weight change, otherwise mild to severe. */
export type SeverityOn<S extends SymptomScale> = S extends 'weightChange' ? WeightChange : Severity;

export interface SymptomAnswer<S extends SymptomScale = SymptomScale> {
  readonly present: boolean;
  readonly severity?: SeverityOn<S>;
}

type CatalogueSymptomOf<C extends Condition> = (typeof SYMPTOM_CATALOGUE)[C][number];

/** The symptom keys of a condition, as the symptom catalogue lists them. */
export type SymptomKey<C extends Condition> = CatalogueSymptomOf<C>['key'];

export type ConditionSymptomAnswers<C extends Condition> = {
  readonly [S in CatalogueSymptomOf<C> as S['key']]?: SymptomAnswer<S['scale']>;
};

export type SymptomAnswers = { readonly [C in Condition]?: ConditionSymptomAnswers<C> };

export interface ManagementAnswer {
  readonly diagnosed: boolean;
  readonly lastDoctorVisit?: LastDoctorVisit;
  readonly prescriptionDuration?: PrescriptionDuration;
}

export type ManagementAnswers = { readonly [C in Condition]?: ManagementAnswer };
