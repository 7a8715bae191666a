import type { Insertable } from 'kysely';
import { ageOn } from '../../shared/api/patients.ts';
import type { PatientRecordsTable, PatientRecordWordsTable } from '../db/schema.ts';
import { recordWordsText, searchWords } from '../db/repositories/patient-records.ts';
import type { PatientInput } from './assessment-records.ts';

/**
 * The patients of a seed: who each seeded assessment belongs to, and each person's details and
 * measurements, so that a patient's visits read like one person's over time. Everything is drawn
 * from the generator it is given, in a fixed order, so that a seed always gives the same patients.
 */

const femaleFirstNames = [
  'Thandi',
  'Nomsa',
  'Lerato',
  'Zanele',
  'Ayanda',
  'Precious',
  'Palesa',
  'Nokuthula',
  'Busisiwe',
  'Refilwe',
  'Mary',
  'Sarah',
  'Elizabeth',
  'Grace',
  'Joyce',
  'Anna',
  'Maria',
  'Fatima',
  'Aisha',
  'Amina',
  'Priya',
  'Anjali',
  'Sunita',
  'Chantal',
  'Charlene',
  'Michelle',
  'Nicole',
  'Lindiwe',
  'Tshepiso',
  'Naledi',
  'Esther',
  'Ruth',
  'Hannah',
  'Linh',
  'Mei',
  'Sofia',
  'Ingrid',
  'Amahle',
  'Khanyisile',
  'Dineo',
] as const;

const maleFirstNames = [
  'Sipho',
  'Thabo',
  'Mandla',
  'Bongani',
  'Themba',
  'Sibusiso',
  'Tshepo',
  'Kagiso',
  'Lwazi',
  'Musa',
  'John',
  'David',
  'Peter',
  'Michael',
  'James',
  'Paul',
  'Joseph',
  'Mohammed',
  'Ahmed',
  'Yusuf',
  'Rajesh',
  'Vikram',
  'Suresh',
  'Pieter',
  'Johan',
  'Willem',
  'Andre',
  'Jabulani',
  'Kabelo',
  'Lungile',
  'Samuel',
  'Daniel',
  'Emmanuel',
  'Minh',
  'Wei',
  'Carlos',
  'Lars',
  'Tumelo',
  'Vusi',
  'Xolani',
] as const;

const surnames = [
  'Dlamini',
  'Nkosi',
  'Ndlovu',
  'Khumalo',
  'Mokoena',
  'Mahlangu',
  'Sithole',
  'Zulu',
  'Mthembu',
  'Ngcobo',
  'Mabaso',
  'Molefe',
  'Mofokeng',
  'Radebe',
  'Shabalala',
  'Buthelezi',
  'Cele',
  'Hadebe',
  'Maseko',
  'Nxumalo',
  'Tshabalala',
  'Masilela',
  'Modise',
  'Baloyi',
  'Mathebula',
  'Chauke',
  'Maluleke',
  'Ntuli',
  'Gumede',
  'Zwane',
  'Naidoo',
  'Pillay',
  'Govender',
  'Moodley',
  'Reddy',
  'Singh',
  'Patel',
  'Khan',
  'Hassan',
  'Ahmed',
  'Botha',
  'van der Merwe',
  'Pretorius',
  'Nel',
  'du Plessis',
  'van Wyk',
  'Coetzee',
  'Jacobs',
  'Petersen',
  'Adams',
  'Williams',
  'Smith',
  'Brown',
  'Jones',
  'Taylor',
  'Johnson',
  'Wilson',
  'Fourie',
  'Kruger',
  'Meyer',
  'Okafor',
  'Mensah',
  'Mwangi',
  'Otieno',
  'Banda',
  'Phiri',
  'Moyo',
  'Ncube',
  'Nguyen',
  'Tran',
  'Chen',
  'Wang',
  'Kim',
  'García',
  'Nuñez',
  'Silva',
  'Santos',
  'Müller',
  'Schmidt',
  'Andersson',
] as const;

/**
 * A patient's visits follow a truncated power law: P(k) ∝ k^-α for 1 ≤ k ≤ the maximum. At a
 * mean of 3⅓ (a million assessments over 300,000 patients) α is about 1.9: 58 % of patients come
 * once, 87 % one to five times, and about one in 300 fifty times or more.
 */
export const usualMostVisits = 60;

function visitWeights(alpha: number, most: number): Float64Array {
  const weights = new Float64Array(most);
  let sum = 0;
  for (let k = 1; k <= most; k++) {
    weights[k - 1] = k ** -alpha;
    sum += weights[k - 1] ?? 0;
  }
  return weights.map((weight) => weight / sum);
}

function meanVisits(weights: Float64Array): number {
  return weights.reduce((mean, weight, index) => mean + weight * (index + 1), 0);
}

/**
 * How many visits each of `patients` patients makes, `assessments` in all: drawn from the
 * power law whose mean is assessments / patients, then raised or lowered one visit at a time,
 * patient after patient from a drawn starting point, until they add up.
 */
export function visitCounts(random: () => number, patients: number, assessments: number) {
  if (!(patients >= 1 && patients <= assessments)) {
    throw new Error('A seed needs at least one patient and no more patients than assessments');
  }
  const most = Math.max(usualMostVisits, Math.ceil((2 * assessments) / patients));
  const target = assessments / patients;
  let [low, high] = [0, 20];
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (meanVisits(visitWeights(middle, most)) > target) low = middle;
    else high = middle;
  }
  const cumulative = new Float64Array(most);
  let sum = 0;
  for (const [index, weight] of visitWeights(low, most).entries()) {
    sum += weight;
    cumulative[index] = sum;
  }
  const counts = new Uint32Array(patients);
  let total = 0;
  for (let patient = 0; patient < patients; patient++) {
    const draw = random() * sum;
    let [first, last] = [0, most - 1];
    while (first < last) {
      const middle = (first + last) >> 1;
      if ((cumulative[middle] ?? 0) > draw) last = middle;
      else first = middle + 1;
    }
    counts[patient] = first + 1;
    total += first + 1;
  }
  for (
    let patient = Math.floor(random() * patients);
    total !== assessments;
    patient = (patient + 1) % patients
  ) {
    const count = counts[patient] ?? 1;
    if (total > assessments && count > 1) {
      counts[patient] = count - 1;
      total--;
    } else if (total < assessments && count < most) {
      counts[patient] = count + 1;
      total++;
    }
  }
  return counts;
}

/**
 * Which patient each assessment belongs to, in the order the seed makes them: every patient's
 * visits placed at random among all, so that each patient's are spread over the seed's two
 * years (a shuffle of each patient repeated as often as they visit).
 */
export function visitOrder(random: () => number, counts: Uint32Array): Uint32Array {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const order = new Uint32Array(total);
  let at = 0;
  for (const [patient, count] of counts.entries()) {
    order.fill(patient, at, at + count);
    at += count;
  }
  for (let index = total - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    const kept = order[index] ?? 0;
    order[index] = order[other] ?? 0;
    order[other] = kept;
  }
  return order;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/**
 * Patient numbers: distinct and drawn at random over 7 digits or more (as wide as a clinic's
 * numbering, at least ten times the patients), so that the first five digits of a number are
 * shared by a few records only.
 */
function numberMaker(random: () => number, patients: number): () => string {
  const digits = Math.max(7, String(patients * 10).length);
  const taken = new Set<number>();
  return () => {
    let value: number;
    do value = Math.floor(random() * 10 ** digits);
    while (taken.has(value));
    taken.add(value);
    return String(value).padStart(digits, '0');
  };
}

export interface SeededPatients {
  /** The patient of the seed's assessment `index` (in the order they are made). */
  patientOf(index: number): number;
  /**
   * The row and search words of a patient's record, made with the patient's first visit
   * (`createdAt`) under `id`.
   */
  record(
    patient: number,
    id: string,
    createdAt: string,
    createdBy: string,
    orgUnitId: string,
  ): {
    record: Insertable<PatientRecordsTable>;
    words: Insertable<PatientRecordWordsTable>[];
  };
  /**
   * The demographics measured at a patient's next visit, on `localDate` (the clinic's calendar):
   * the same gender and height every time, the age the date of birth gives that day, the weight
   * drifting from the last visit. A measurement the drawn input left out stays out.
   */
  measure(
    patient: number,
    localDate: string,
    drawn: PatientInput['demographics'],
  ): PatientInput['demographics'];
}

/**
 * Draws `patients` people for `assessments` assessments ending at `end` (`endLocalDate` on the
 * clinic's calendar): number, name, date of birth (aged 20 to 89 at the end, so at least 18 at
 * a visit two years before), gender, height and a starting weight.
 */
export function seedPatients(
  random: () => number,
  options: { patients: number; assessments: number; endLocalDate: string },
): SeededPatients {
  const { patients } = options;
  const order = visitOrder(random, visitCounts(random, patients, options.assessments));
  const nextNumber = numberMaker(random, patients);
  const female = new Uint8Array(patients);
  const heights = new Float64Array(patients);
  const weights = new Float64Array(patients);
  const visits = new Uint32Array(patients);
  const names: string[] = [];
  const numbers: string[] = [];
  const birthDates: string[] = [];
  const endYear = Number(options.endLocalDate.slice(0, 4));
  for (let patient = 0; patient < patients; patient++) {
    const isFemale = random() < 0.55;
    female[patient] = isFemale ? 1 : 0;
    const firstNames = isFemale ? femaleFirstNames : maleFirstNames;
    const first = pick(random, firstNames);
    const second = random() < 0.1 ? ` ${pick(random, firstNames)}` : '';
    names.push(`${first}${second} ${pick(random, surnames)}`);
    // One in ten numbers carries the year it was issued, as some clinics write them.
    const number = `MRN-${nextNumber()}`;
    numbers.push(
      random() < 0.1
        ? `${number}/${String(10 + Math.floor(random() * 17)).padStart(2, '0')}`
        : number,
    );
    const age = 20 + Math.floor(random() * 70);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    const birthDate = `${String(endYear - age).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    // Born later in the year than the end's date: one year younger at the end.
    birthDates.push(
      birthDate.slice(5) > options.endLocalDate.slice(5)
        ? `${String(endYear - age - 1).padStart(4, '0')}${birthDate.slice(4)}`
        : birthDate,
    );
    heights[patient] = isFemale
      ? Math.round(1500 + random() * 300) / 10
      : Math.round(1600 + random() * 350) / 10;
    weights[patient] = Math.round(450 + random() * 800) / 10;
  }
  return {
    patientOf: (index) => order[index] ?? 0,
    record(patient, id, createdAt, createdBy, orgUnitId) {
      const number = numbers[patient] ?? '';
      const name = names[patient] ?? null;
      const words = [...new Set([...searchWords(number), ...searchWords(name ?? '')])];
      return {
        record: {
          id,
          number,
          number_key: number.toLowerCase(),
          name,
          birth_date: birthDates[patient] ?? null,
          gender: female[patient] === 1 ? 'Female' : 'Male',
          version: 1,
          created_at: createdAt,
          updated_at: createdAt,
          created_by: createdBy,
          deleted_at: null,
          deleted_by: null,
          org_unit_id: orgUnitId,
        },
        words: words.map((word) => ({
          word,
          patient_record_id: id,
          live_number_key: number.toLowerCase(),
          record_words: recordWordsText(words),
        })),
      };
    },
    measure(patient, localDate, drawn) {
      const visit = visits[patient] ?? 0;
      visits[patient] = visit + 1;
      if (visit > 0) {
        // About a kilogram either way between visits, within what a scale reads.
        const drifted = (weights[patient] ?? 70) + (random() - 0.5) * 2.4;
        weights[patient] = Math.round(Math.min(180, Math.max(40, drifted)) * 10) / 10;
      }
      return {
        ...(drawn.age === undefined ? {} : { age: ageOn(birthDates[patient] ?? '', localDate) }),
        ...(drawn.gender === undefined
          ? {}
          : { gender: female[patient] === 1 ? 'Female' : 'Male' }),
        ...(drawn.height === undefined ? {} : { height: heights[patient] ?? 170 }),
        ...(drawn.weight === undefined ? {} : { weight: weights[patient] ?? 70 }),
      };
    },
  };
}
