/** Lines of assessment input for property tests: valid ones, and valid ones changed or broken. */
import fc from 'fast-check';
import { patientArbitrary } from '../../engine/testing/arbitraries.ts';

/** Valid inputs as JSON on one line, or spread over several with the given indents. */
export function validLineArbitrary(
  indents: readonly (string | number | undefined)[] = [undefined],
): fc.Arbitrary<string> {
  return fc
    .tuple(patientArbitrary, fc.constantFrom(...indents))
    .map(([input, indent]) => JSON.stringify(input, null, indent));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys of every level of the schema, and some it does not know. */
const keyArbitrary = fc.oneof(
  fc.constantFrom(
    'demographics',
    'riskFactors',
    'symptoms',
    'management',
    'age',
    'gender',
    'height',
    'weight',
    'smoking',
    'familyHistory',
    'householdTBExposure',
    'DM2',
    'HIV',
    'TB',
    'Asthma',
    'Hypertension',
    'Hyperlipidaemia',
    'fatigue',
    'fever',
    'weightLoss',
    'present',
    'severity',
    'diagnosed',
    'lastDoctorVisit',
    'prescriptionDuration',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 6 }),
);

/** Values of every type the schema takes somewhere, at and past its bounds, and others. */
const valueArbitrary: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    -0,
    0,
    1,
    49.99,
    50,
    120,
    120.5,
    121,
    250,
    500,
    500.0001,
    -1,
    'Male',
    'Female',
    'mild',
    'severe',
    'loss',
    'gain',
    'never',
    '<4months',
    '>12months',
    true,
    false,
    null,
    {},
    [],
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

type Mutation = (value: Json) => Json;

/** A change somewhere in a parsed input: a value replaced, a key added, or a key removed. */
const mutationArbitrary: fc.Arbitrary<{ path: number[]; change: Mutation }> = fc.record({
  path: fc.array(fc.nat(), { maxLength: 4 }),
  change: fc.oneof(
    valueArbitrary.map(
      (replacement): Mutation =>
        () =>
          replacement,
    ),
    fc.tuple(keyArbitrary, valueArbitrary).map(
      ([key, value]): Mutation =>
        (object) =>
          isObject(object) ? { ...object, [key]: value } : object,
    ),
    fc.nat().map((index): Mutation => (object) => {
      if (!isObject(object)) return object;
      const keys = Object.keys(object);
      const dropped = keys[index % Math.max(keys.length, 1)];
      return Object.fromEntries(Object.entries(object).filter(([key]) => key !== dropped));
    }),
  ),
});

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies the change at the path, each step choosing a member by its position. */
function mutate(value: Json, path: readonly number[], change: Mutation): Json {
  const [step, ...rest] = path;
  if (step === undefined || !isObject(value)) return change(value);
  const keys = Object.keys(value);
  const key = keys[step % Math.max(keys.length, 1)];
  if (key === undefined) return change(value);
  return { ...value, [key]: mutate(value[key] ?? null, rest, change) };
}

/** Valid inputs with a value replaced, a key added or a key removed somewhere, as JSON on one line. */
export const mutatedLineArbitrary = fc
  .tuple(patientArbitrary, fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }))
  .map(([input, mutations]) =>
    JSON.stringify(
      mutations.reduce<Json>(
        (value, { path, change }) => mutate(value, path, change),
        JSON.parse(JSON.stringify(input)) as Json,
      ),
    ),
  );

/** Characters and tokens that JSON and the schema care about, and a few they do not take. */
const textPieceArbitrary = fc.oneof(
  fc.constantFrom(
    ...'{}[]":,.-+eE0123456789 \t\r\\/untrfalsé\u2028\u0000'.split(''),
    '-0',
    '1e2',
    '1E+2',
    '0.5e-1',
    '00',
    '\\u0046',
    '\\"',
    'null',
    'true',
    'false',
    '"Male"',
    '"present":',
    '12345678901234567890',
  ),
);

/** A valid line with characters inserted, removed or replaced. */
export const editedLineArbitrary = fc
  .tuple(
    validLineArbitrary(),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), textPieceArbitrary), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([line, edits]) =>
    edits.reduce((text, [at, removed, inserted]) => {
      const position = at % (text.length + 1);
      return text.slice(0, position) + inserted + text.slice(position + removed);
    }, line),
  );
