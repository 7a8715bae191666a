import { useId, useMemo, useState } from 'react';
import {
  Combobox,
  Fieldset,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import {
  patientNameSchema,
  patientNumberSchema,
  type Patient,
} from '../../../shared/api/patients.ts';
import { usePatientSearch, type PatientSearch } from '../../hooks/usePatientSearch.ts';
import { useOutbox } from '../../offline/OutboxContext.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { isNewPatient, isPatientByNumber, type PatientForm } from '../../assessment/form.ts';
import {
  asNewPatient,
  asPatientByNumber,
  hasNumber,
  patientLabel,
  withPatientNumber,
  type PatientProblems,
} from '../../assessment/patient.ts';

const nameMaxLength = patientNameSchema.maxLength ?? 200;

/** The option values of 'New patient' and 'Use patient number' (record ids are UUIDs). */
const newPatientValue = 'new-patient';
const byNumberValue = 'patient-by-number';

/** The records a search has found for the text so far (kept on screen while the next one runs). */
function foundPatients(search: PatientSearch): readonly Patient[] {
  return search.status === 'loaded' || search.status === 'searching' ? search.items : [];
}

/** A line above the options on how the search went, or null. */
function searchNote(search: PatientSearch, shown: number): string | null {
  switch (search.status) {
    case 'idle':
      return null;
    case 'searching':
      return shown === 0 ? 'Searching...' : null;
    case 'failed':
      return `The patient search failed: ${search.message}`;
    case 'loaded':
      if (search.source === 'device') {
        return search.total === 0 ? offlineTexts.noKeptPatient : offlineTexts.keptPatients;
      }
      if (search.total === 0) return 'No patient has a number or name starting with this.';
      return search.total > shown
        ? `The first ${shown} of ${search.total} patients; type more to narrow the search.`
        : null;
  }
}

/**
 * The optional patient number of step 1: a search by number or name as the nurse types, whose
 * records can be chosen with the mouse or the arrow keys and Enter. A number no record has offers
 * 'New patient', with an optional name and date of birth.
 */
export function PatientField({
  patient,
  problems,
  onChange,
  onChoose,
}: {
  patient: PatientForm;
  problems: PatientProblems;
  onChange: (patient: PatientForm) => void;
  onChoose: (patient: Patient) => void;
}) {
  const inputId = useId();
  const [visited, setVisited] = useState(patient.number !== '');
  const [focused, setFocused] = useState(false);
  /** The record was chosen here, now (not the one a saved assessment or a link came with). */
  const [chosenHere, setChosenHere] = useState(false);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const outbox = useOutbox();
  const kept = useMemo(
    () => ({ keep: outbox.keepPatients, search: outbox.searchKeptPatients }),
    [outbox.keepPatients, outbox.searchKeptPatients],
  );
  const search = usePatientSearch(patient.number, { enabled: patient.chosen === null, kept });
  const found = foundPatients(search);
  const typed = patient.number.trim();
  const searched =
    (search.status === 'loaded' || search.status === 'failed') && search.query === typed;
  // Without a network only the records kept on this device are searched: a number not among
  // them is used as it is, for the server to link when the assessment uploads.
  const onDevice = search.status === 'loaded' && search.source === 'device';
  // A number a record already has is chosen from the list, never made again.
  const numberOnRecord = patient.chosen === null && hasNumber(found, typed);
  const offerChoice =
    patient.chosen === null &&
    !patient.isNew &&
    !patient.byNumber &&
    searched &&
    !numberOnRecord &&
    patientNumberSchema.safeParse(typed).success;
  const offerNewPatient = offerChoice && !onDevice;
  const offerByNumber = offerChoice && onDevice;
  const note = searchNote(search, found.length);

  function submit(value: string) {
    combobox.closeDropdown();
    if (value === newPatientValue) {
      onChange(asNewPatient(patient));
      return;
    }
    if (value === byNumberValue) {
      onChange(asPatientByNumber(patient));
      return;
    }
    const chosen = found.find((record) => record.id === value);
    if (chosen === undefined) return;
    setChosenHere(true);
    onChoose(chosen);
  }

  return (
    <Stack gap={4}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Combobox store={combobox} onOptionSubmit={submit}>
          <Combobox.Target withExpandedAttribute autoComplete="off">
            <TextInput
              id={inputId}
              label="Patient number"
              description="Optional. Type a patient number or name to find the patient's record."
              value={patient.number}
              maxLength={200}
              error={visited && !focused ? problems.number : undefined}
              rightSection={search.status === 'searching' ? <Loader size={16} /> : null}
              onChange={(event) => {
                onChange(withPatientNumber(patient, event.currentTarget.value));
                combobox.openDropdown();
                combobox.updateSelectedOptionIndex();
              }}
              onFocus={() => {
                setFocused(true);
                if (patient.chosen === null && typed !== '') combobox.openDropdown();
              }}
              onBlur={() => {
                setFocused(false);
                setVisited(true);
                combobox.closeDropdown();
              }}
            />
          </Combobox.Target>
          <Combobox.Dropdown hidden={patient.chosen !== null || typed === ''}>
            {note !== null && (
              <Combobox.Header>
                <Text size="sm">{note}</Text>
              </Combobox.Header>
            )}
            {/* Always mounted: the input's aria-expanded and aria-controls name this list. */}
            <Combobox.Options labelledBy={`${inputId}-label`}>
              {found.map((record) => (
                <Combobox.Option value={record.id} key={record.id}>
                  {patientLabel(record)}
                </Combobox.Option>
              ))}
              {offerNewPatient && (
                <Combobox.Option value={newPatientValue} fw={600}>
                  New patient with the number {typed}
                </Combobox.Option>
              )}
              {offerByNumber && (
                <Combobox.Option value={byNumberValue} fw={600}>
                  {offlineTexts.useNumber(typed)}
                </Combobox.Option>
              )}
            </Combobox.Options>
          </Combobox.Dropdown>
        </Combobox>
      </SimpleGrid>
      {/* Always rendered, so that screen readers hear what the number stands for as it changes. */}
      <Text size="sm" role="status">
        {patient.chosen !== null &&
          `Patient record: ${patientLabel(patient.chosen)}.${chosenHere ? ' Gender, age and height are filled from the record where it knows them; correct any that have changed.' : ''}`}
        {numberOnRecord && 'A patient already has this number: choose them from the list.'}
      </Text>
      {(isNewPatient(patient) || isPatientByNumber(patient)) && (
        <Fieldset
          legend={isNewPatient(patient) ? 'New patient' : offlineTexts.useNumber(typed)}
          variant="filled"
          mt="xs"
        >
          <Text size="sm" mb="sm">
            {isNewPatient(patient)
              ? `A new patient record is made with the number ${typed} when the assessment is saved. The name and date of birth are optional.`
              : offlineTexts.byNumberHelp(typed, patient.linkWhateverGender)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Name"
              value={patient.name}
              maxLength={nameMaxLength}
              autoComplete="off"
              onChange={(event) => onChange({ ...patient, name: event.currentTarget.value })}
            />
            <TextInput
              type="date"
              label="Date of birth"
              value={patient.birthDate}
              error={problems.birthDate}
              onChange={(event) => onChange({ ...patient, birthDate: event.currentTarget.value })}
            />
          </SimpleGrid>
        </Fieldset>
      )}
    </Stack>
  );
}
