import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Anchor, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { PatientList } from '../../../shared/api/patients.ts';
import { friendlyMessageFor } from '../../components/errors/friendlyMessage.ts';
import { patientSearchDetails, patientSearchLimit, patientSearchStatus } from './patientSearch.ts';

/** Typing pauses this long before the server is asked. */
const searchDebounceMs = 300;

interface SearchState {
  /** The words the results answer; kept on screen while the next words' results load. */
  query: string;
  results: PatientList | null;
  loading: boolean;
  failure: string | null;
}

const idle: SearchState = { query: '', results: null, loading: false, failure: null };

/**
 * Finds a patient record by the start of its number or of a word of the name, and links to the
 * patient's page. Arrow keys move between the search box and the results.
 */
export function PatientSearch() {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), searchDebounceMs);
  const [state, setState] = useState<SearchState>(idle);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (query === '') {
      setState(idle);
      return;
    }
    const controller = new AbortController();
    setState((current) => ({ ...current, loading: true, failure: null }));
    // The patient API and its schemas load with the first search, not with the dashboard.
    import('../../api/patients.ts')
      .then(({ searchPatients }) =>
        searchPatients(query, { limit: patientSearchLimit, signal: controller.signal }),
      )
      .then(
        (results) => {
          if (!controller.signal.aborted) {
            setState({ query, results, loading: false, failure: null });
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ query, results: null, loading: false, failure: friendlyMessageFor(error) });
        },
      );
    return () => controller.abort();
  }, [query]);

  const links = () => [...(listRef.current?.querySelectorAll('a') ?? [])];

  function moveFocus(event: KeyboardEvent, step: 1 | -1) {
    const all = links();
    if (all.length === 0) return;
    event.preventDefault();
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    const next = index + step;
    if (next < 0) inputRef.current?.focus();
    else all[Math.min(next, all.length - 1)]?.focus();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown') moveFocus(event, 1);
    else if (event.key === 'ArrowUp') moveFocus(event, -1);
    else if (event.key === 'Escape' && event.target === inputRef.current) setSearch('');
  }

  const { results } = state;
  const shown = search.trim() === '' ? null : results;
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      component="section"
      aria-labelledby="patient-search-title"
    >
      <Stack gap="sm" onKeyDown={onKeyDown}>
        <Title order={2} size="h3" id="patient-search-title">
          Find a Patient
        </Title>
        <TextInput
          ref={inputRef}
          type="search"
          label="Search patients"
          description="The start of a patient number or of a name"
          value={search}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => setSearch(event.currentTarget.value)}
          rightSection={
            state.loading ? <Loader size="xs" role="img" aria-label="Searching" /> : null
          }
          maw={480}
        />
        {/* Always present, so that screen readers announce each new count. */}
        <Text size="sm" role="status" c={state.failure === null ? undefined : 'red.8'}>
          {search.trim() === ''
            ? ''
            : (state.failure ??
              (results === null
                ? ''
                : patientSearchStatus(state.query, results.items.length, results.total)))}
        </Text>
        {shown !== null && shown.items.length > 0 && (
          <ul
            ref={listRef}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Matching patients"
          >
            {shown.items.map((patient) => (
              <li key={patient.id}>
                <Anchor
                  component={Link}
                  to={`/patients/${encodeURIComponent(patient.id)}`}
                  display="block"
                  py={6}
                  px="xs"
                  underline="hover"
                >
                  <Group gap="sm" wrap="wrap">
                    <Text component="span" fw={700} ff="monospace">
                      {patient.number}
                    </Text>
                    <Text component="span" c="dark.7" size="sm">
                      {patientSearchDetails(patient)}
                    </Text>
                  </Group>
                </Anchor>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Card>
  );
}
