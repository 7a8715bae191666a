import { useState } from 'react';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { calculateBMI, GENDERS, type Gender } from '../../../engine/index.ts';
import type { Patient } from '../../../shared/api/patients.ts';
import { bmiNote } from '../../components/assessment/display.ts';
import { formatBmi } from '../../../shared/display.ts';
import { DEMOGRAPHIC_RANGES } from '../../../shared/assessment-input.ts';
import {
  type DemographicField,
  type DemographicsForm,
  type ParsedDemographics,
  type PatientForm,
  WIZARD_AGE_RANGE,
} from '../../assessment/form.ts';
import type { PatientProblems } from '../../assessment/patient.ts';
import { demographicsFilled } from '../../assessment/steps.ts';
import { assessmentUnitLabel } from '../../assessment/unitChoice.ts';
import { wizardTexts } from '../../components/assessment/messages.ts';
import { UnreadFromRecord, withRecordNote } from '../../components/assessment/RecordNote.tsx';
import type { RecordNotes } from '../../assessment/launch.ts';
import type { UnitChoice } from '../../hooks/useAssessmentWizard.ts';
import { PatientField } from './PatientField.tsx';

/** Fields restored with a value show their message at once; empty ones once visited. */
function initiallyVisited(form: DemographicsForm): Set<DemographicField> {
  const visited = new Set<DemographicField>();
  if (form.age !== '') visited.add('age');
  if (form.gender !== null) visited.add('gender');
  if (form.height !== '') visited.add('height');
  if (form.weight !== '') visited.add('weight');
  return visited;
}

/**
 * Where the assessment is done, for a user who works at several units; a remembered unit comes
 * chosen. Nothing is shown when there is one unit, or when none can be offered but that is said.
 */
function UnitField({
  choice,
  onChoose,
}: {
  choice: UnitChoice;
  onChoose: (orgUnitId: string) => void;
}) {
  const [visited, setVisited] = useState(false);
  if (choice.unavailable) {
    return (
      <Text size="sm" c="dimmed">
        {wizardTexts.unitsUnavailable}
      </Text>
    );
  }
  if (choice.offered === null) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Select
        label="Unit"
        description="Where this assessment is done; a new patient record is registered there too."
        placeholder="Choose the unit"
        required
        searchable
        allowDeselect={false}
        nothingFoundMessage="No unit matches"
        data={choice.offered.map((unit) => ({ value: unit.id, label: assessmentUnitLabel(unit) }))}
        value={choice.missing ? null : choice.chosenId}
        onChange={(value) => {
          if (value !== null) onChoose(value);
        }}
        onBlur={() => setVisited(true)}
        error={visited && choice.missing ? 'Unit is required' : undefined}
        comboboxProps={{ withinPortal: true }}
      />
    </SimpleGrid>
  );
}

function BmiDisplay({ parsed }: { parsed: ParsedDemographics }) {
  const { height, weight } = parsed.values;
  const known = height !== undefined && weight !== undefined;
  const bmi = calculateBMI(height, weight);
  return (
    <Paper withBorder p="md" radius="md" aria-live="polite">
      <Text size="sm" c="dimmed">
        BMI
      </Text>
      {known ? (
        <>
          <Text fw={700} fz="xl">
            {formatBmi(bmi)}
          </Text>
          <Text size="sm">{bmiNote(bmi)}</Text>
        </>
      ) : (
        <Text size="sm">Enter a valid height and weight to calculate the BMI.</Text>
      )}
    </Paper>
  );
}

export function DemographicsStep({
  form,
  parsed,
  unitChoice,
  patient,
  patientProblems,
  recordNotes,
  unreadFromRecord,
  canContinue,
  onChange,
  onChooseUnit,
  onPatientChange,
  onChoosePatient,
  onContinue,
}: {
  form: DemographicsForm;
  parsed: ParsedDemographics;
  unitChoice: UnitChoice;
  patient: PatientForm;
  patientProblems: PatientProblems;
  /** What the record says of each field (a launch from a record system). */
  recordNotes: Pick<RecordNotes, DemographicField>;
  /** What the record could not be asked, 'resource: reason' each. */
  unreadFromRecord: readonly string[];
  canContinue: boolean;
  onChange: (form: DemographicsForm) => void;
  onChooseUnit: (orgUnitId: string) => void;
  onPatientChange: (patient: PatientForm) => void;
  /** A record chosen from the search: it fills the demographics it knows. */
  onChoosePatient: (patient: Patient) => void;
  onContinue: () => void;
}) {
  const [visited, setVisited] = useState(() => initiallyVisited(form));
  const visit = (field: DemographicField) =>
    setVisited((current) => (current.has(field) ? current : new Set(current).add(field)));
  const messageFor = (field: DemographicField) =>
    visited.has(field) ? parsed.problems[field]?.message : undefined;
  const setText = (field: 'age' | 'height' | 'weight', value: string | number) =>
    onChange({ ...form, [field]: String(value) });

  return (
    <Stack gap="lg">
      <UnreadFromRecord lines={unreadFromRecord} />
      <UnitField choice={unitChoice} onChoose={onChooseUnit} />
      <PatientField
        patient={patient}
        problems={patientProblems}
        onChange={(next) => {
          // A date of birth fills Age: its message shows at once, as if typed.
          if (next.isNew && next.birthDate !== patient.birthDate) visit('age');
          onPatientChange(next);
        }}
        onChoose={(chosen) => {
          // The filled values are checked at once, as if typed.
          setVisited((current) => new Set([...current, 'age', 'gender', 'height']));
          onChoosePatient(chosen);
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NumberInput
          label="Age"
          {...withRecordNote(
            recordNotes.age,
            `Whole years, ${WIZARD_AGE_RANGE.min} to ${WIZARD_AGE_RANGE.max}`,
          )}
          required
          value={form.age}
          onChange={(value) => setText('age', value)}
          onBlur={() => visit('age')}
          error={messageFor('age')}
          min={WIZARD_AGE_RANGE.min}
          max={WIZARD_AGE_RANGE.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          hideControls
        />
        <Radio.Group
          label="Gender"
          {...withRecordNote(recordNotes.gender)}
          required
          value={form.gender}
          onChange={(value) => {
            visit('gender');
            onChange({ ...form, gender: GENDERS.find((g) => g === value) ?? null });
          }}
          error={messageFor('gender')}
          onBlur={() => visit('gender')}
        >
          <Group gap="lg" mt={6}>
            {GENDERS.map((gender: Gender) => (
              <Radio key={gender} value={gender} label={gender} />
            ))}
          </Group>
        </Radio.Group>
        <NumberInput
          label="Height (cm)"
          {...withRecordNote(
            recordNotes.height,
            `${DEMOGRAPHIC_RANGES.height.min} to ${DEMOGRAPHIC_RANGES.height.max} cm`,
          )}
          required
          value={form.height}
          onChange={(value) => setText('height', value)}
          onBlur={() => visit('height')}
          error={messageFor('height')}
          min={DEMOGRAPHIC_RANGES.height.min}
          max={DEMOGRAPHIC_RANGES.height.max}
          step={0.1}
          decimalScale={1}
          allowNegative={false}
          clampBehavior="none"
          hideControls
        />
        <NumberInput
          label="Weight (kg)"
          {...withRecordNote(
            recordNotes.weight,
            `${DEMOGRAPHIC_RANGES.weight.min} to ${DEMOGRAPHIC_RANGES.weight.max} kg`,
          )}
          required
          value={form.weight}
          onChange={(value) => setText('weight', value)}
          onBlur={() => visit('weight')}
          error={messageFor('weight')}
          min={DEMOGRAPHIC_RANGES.weight.min}
          max={DEMOGRAPHIC_RANGES.weight.max}
          step={0.1}
          decimalScale={1}
          allowNegative={false}
          clampBehavior="none"
          hideControls
        />
      </SimpleGrid>
      <BmiDisplay parsed={parsed} />
      <Stack gap={4} align="flex-end">
        <Button onClick={onContinue} disabled={!canContinue}>
          Continue to Risk Factors
        </Button>
        {!canContinue && !demographicsFilled(parsed.values) && (
          <Text size="sm" c="dimmed" ta="right">
            Enter an age from {WIZARD_AGE_RANGE.min} to {WIZARD_AGE_RANGE.max}, a gender, a height
            and a weight to continue.
          </Text>
        )}
        {!canContinue && unitChoice.missing && (
          <Text size="sm" c="dimmed" ta="right">
            {wizardTexts.unitMissing}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
