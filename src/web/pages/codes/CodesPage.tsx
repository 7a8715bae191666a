import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  List,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import {
  CODE_TYPES,
  extractionFailedMessage,
  type ExtractionResult,
} from '../../../shared/api/code-extraction.ts';
import { ApiError } from '../../api/client.ts';
import {
  downloadExtractionCsv,
  downloadExtractionReport,
  extractCodes,
  type ExtractionProgress,
} from '../../api/code-extraction.ts';
import { errorMessage } from '../../forms.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { safeGreen } from '../../components/assessment/display.ts';

/** Spec 2.5: how many matches the page shows as samples. */
const sampleCount = 5;

type Extraction =
  | { status: 'idle' }
  | { status: 'running'; progress: ExtractionProgress | null }
  | { status: 'done'; result: ExtractionResult };

const confidenceColors = { high: safeGreen, medium: 'yellow.4', low: 'gray.7' } as const;

function ConfidenceBadge({ confidence }: { confidence: keyof typeof confidenceColors }) {
  return (
    <Badge color={confidenceColors[confidence]} autoContrast variant="filled">
      {confidence}
    </Badge>
  );
}

/** The id of a result section's heading, which also names the section's table. */
function headingIdOf(title: string): string {
  return `codes-${title.toLowerCase().replaceAll(' ', '-')}`;
}

/**
 * Samples and kinds of code are lists rather than tables: a context or description reads better
 * as a line of its own, and stays readable on a phone.
 */
function CardList({ children }: { children: ReactNode }) {
  return (
    <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}

function CodeCard({
  heading,
  confidence,
  detail,
}: {
  heading: ReactNode;
  confidence: keyof typeof confidenceColors;
  detail: string;
}) {
  return (
    <Paper component="li" withBorder p="sm" radius="sm">
      <Group gap="sm">
        {heading}
        <ConfidenceBadge confidence={confidence} />
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {detail}
      </Text>
    </Paper>
  );
}

function ResultSection({ title, children }: { title: string; children: ReactNode }) {
  const id = headingIdOf(title);
  return (
    <Card withBorder component="section" aria-labelledby={id} padding="md" radius="md">
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function ScanProgress({ progress }: { progress: ExtractionProgress | null }) {
  const percent =
    progress === null || progress.total === 0
      ? 0
      : Math.round((progress.scanned / progress.total) * 100);
  const text =
    progress === null
      ? 'Scanning notes...'
      : `Scanned ${progress.scanned} of ${progress.total} notes`;
  return (
    <Stack gap={4} role="status">
      <Progress value={percent} size="lg" aria-label="Notes scanned" animated striped />
      <Text size="sm">{text}</Text>
    </Stack>
  );
}

function DownloadButton({ label, download }: { label: string; download: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      await download();
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="default" loading={busy} onClick={() => void run()}>
      {label}
    </Button>
  );
}

function Totals({ totals }: { totals: ExtractionResult['totals'] }) {
  const items = [
    ['Total Notes', totals.totalNotes],
    ['Notes with Codes', totals.notesWithCodes],
    ['Unique Codes', totals.uniqueCodes],
    ['Total Matches', totals.totalMatches],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" component="dl" m={0}>
      {items.map(([label, value]) => (
        <Card key={label} withBorder padding="sm" radius="md">
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} fz="xl" fw={700}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Results({ result }: { result: ExtractionResult }) {
  const samples = result.matches.slice(0, sampleCount);
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Text fw={500}>Download:</Text>
        <DownloadButton label="Report" download={downloadExtractionReport} />
        <DownloadButton label="CSV" download={downloadExtractionCsv} />
      </Group>

      <Totals totals={result.totals} />

      <ResultSection title="Codes by Type">
        <Table verticalSpacing={4} fz="sm" aria-labelledby={headingIdOf('Codes by Type')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Code type</Table.Th>
              <Table.Th scope="col" ta="right">
                Matches
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {CODE_TYPES.map((type) => (
              <Table.Tr key={type}>
                <Table.Th scope="row" fw={400}>
                  {type}
                </Table.Th>
                <Table.Td ta="right">{result.countsByType[type]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ResultSection>

      <ResultSection title="Sample Codes">
        {samples.length === 0 ? (
          <Text size="sm">No codes were found in the notes.</Text>
        ) : (
          <CardList>
            {samples.map((match, index) => (
              <CodeCard
                key={index}
                heading={
                  <>
                    <Text ff="monospace" fw={700}>
                      {match.code}
                    </Text>
                    <Text size="sm">{match.type}</Text>
                  </>
                }
                confidence={match.confidence}
                detail={match.context}
              />
            ))}
          </CardList>
        )}
      </ResultSection>

      <ResultSection title="Possible Inconsistencies">
        <Text size="sm" mb="xs">
          A condition code in a note of an assessment that records the condition as not diagnosed,
          for a clinician to look at.
        </Text>
        {result.inconsistencies.length === 0 ? (
          <Text size="sm">None found.</Text>
        ) : (
          <List spacing="xs" size="sm">
            {result.inconsistencies.map((item) => (
              <List.Item key={`${item.assessmentId} ${item.condition} ${item.code}`}>
                <Text size="sm" span fw={600} ff="monospace">
                  {item.code}
                </Text>{' '}
                ({CONDITION_DISPLAY_NAMES[item.condition]}) in assessment{' '}
                <Anchor
                  component={Link}
                  to={`/assessments/${encodeURIComponent(item.assessmentId)}`}
                  inherit
                >
                  {item.assessmentCode ?? item.assessmentId}
                </Anchor>
                , which records {CONDITION_DISPLAY_NAMES[item.condition]} as not diagnosed:{' '}
                <Text size="sm" span c="dimmed">
                  “{item.context}”
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </ResultSection>

      <ResultSection title="Check Notes">
        {result.notes.length === 0 ? (
          <Text size="sm">No code was lowered or dropped by its check.</Text>
        ) : (
          <List spacing="xs" size="sm">
            {result.notes.map((note) => (
              <List.Item key={note}>{note}</List.Item>
            ))}
          </List>
        )}
      </ResultSection>
    </Stack>
  );
}

function KindsSearched({ kinds }: { kinds: ExtractionResult['kindsSearched'] }) {
  return (
    <ResultSection title="Kinds of Codes Searched">
      <CardList>
        {kinds.map((kind) => (
          <CodeCard
            key={kind.type}
            heading={<Text fw={700}>{kind.type}</Text>}
            confidence={kind.confidence}
            detail={kind.description}
          />
        ))}
      </CardList>
    </ResultSection>
  );
}

/** Spec 2.5: scans every saved note and doctor comment for medical and assessment codes. */
export function CodesPage() {
  usePageTitle('Nurse Notes Code Extractor');
  const [extraction, setExtraction] = useState<Extraction>({ status: 'idle' });
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  async function extract() {
    const controller = new AbortController();
    running.current = controller;
    setExtraction({ status: 'running', progress: null });
    try {
      const result = await extractCodes(
        (progress) => setExtraction({ status: 'running', progress }),
        controller.signal,
      );
      setExtraction({ status: 'done', result });
    } catch (error) {
      if (controller.signal.aborted) return;
      // The status and code say what failed; the notes themselves never go to the console.
      console.error(
        'Code extraction failed',
        error instanceof ApiError ? { status: error.status, code: error.code } : error,
      );
      notifications.show({
        color: 'red',
        title: 'Code extraction failed',
        message: extractionFailedMessage,
      });
      setExtraction({ status: 'idle' });
    }
  }

  return (
    <Container size="lg">
      <Stack gap="lg">
        <Anchor component={Link} to="/" w="fit-content">
          ← Back to Dashboard
        </Anchor>
        <Stack gap={4}>
          <Title order={1}>Nurse Notes Code Extractor</Title>
          <Text c="dimmed">
            Scans every saved clinical note and doctor comment for medical and assessment codes.
          </Text>
        </Stack>
        <Group>
          <Button
            onClick={() => void extract()}
            loading={extraction.status === 'running'}
            loaderProps={{ type: 'dots' }}
          >
            Extract All Codes
          </Button>
        </Group>
        {extraction.status === 'running' && <ScanProgress progress={extraction.progress} />}
        {extraction.status === 'done' && (
          <>
            <Results result={extraction.result} />
            <KindsSearched kinds={extraction.result.kindsSearched} />
          </>
        )}
      </Stack>
    </Container>
  );
}
