import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AssessmentReport, ReportSection } from '../../../shared/api/exports.ts';
import { ApiError } from '../../api/client.ts';
import { downloadReportText, getReport } from '../../api/reports.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import classes from './ReportPage.module.css';

/** Spec section 8: the single report's failures. */
const reportTexts = {
  missingData: 'Cannot generate report: Missing assessment data',
  failed: 'Failed to generate report. Please try again.',
} as const;

function failureText(error: unknown): string {
  return error instanceof ApiError && error.status === 404
    ? reportTexts.missingData
    : reportTexts.failed;
}

type ReportLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; report: AssessmentReport };

/** How many lines stay on the page with their heading when printing breaks a page. */
const linesKeptWithHeading = 2;

/**
 * The server indents a line that belongs to the one above it; the indent becomes padding, so that
 * a wrapped indented line stays indented.
 */
function ReportLine({ line }: { line: string }) {
  const text = line.trimStart();
  return (
    <Text className={classes.line} pl={text.length < line.length ? 'lg' : 0}>
      {text}
    </Text>
  );
}

function Section({ section, index }: { section: ReportSection; index: number }) {
  const headingId = `report-section-${index}`;
  const start = section.lines.slice(0, linesKeptWithHeading);
  const rest = section.lines.slice(linesKeptWithHeading);
  return (
    <Box component="section" aria-labelledby={headingId}>
      <div className={classes.sectionStart}>
        <Title order={2} size="h4" id={headingId} className={classes.heading} mb={4}>
          {section.heading}
        </Title>
        {start.map((line, lineIndex) => (
          <ReportLine key={lineIndex} line={line} />
        ))}
      </div>
      {rest.map((line, lineIndex) => (
        <ReportLine key={lineIndex} line={line} />
      ))}
    </Box>
  );
}

/** Spec 9.5's comprehensive report of one assessment as a page to print or download. */
export function ReportPage() {
  usePageTitle('Assessment Report');
  const { id = '' } = useParams();
  const [load, setLoad] = useState<ReportLoad>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    getReport(id, controller.signal).then(
      (report) => setLoad({ status: 'loaded', report }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: failureText(error) });
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  async function download() {
    setDownloading(true);
    try {
      await downloadReportText(id);
    } catch (error) {
      notifications.show({ color: 'red', message: failureText(error) });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Container size="md" className={classes.report}>
      <Stack gap="lg">
        <Anchor
          component={Link}
          to={`/assessments/${encodeURIComponent(id)}`}
          w="fit-content"
          className={classes.noPrint}
        >
          Back to Results
        </Anchor>

        {load.status === 'loading' && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Loading report...</Text>
          </Group>
        )}

        {load.status === 'failed' && (
          <Alert color="red" title={load.message}>
            {load.message === reportTexts.failed && (
              <Button size="xs" variant="default" onClick={() => setAttempt((n) => n + 1)}>
                Try Again
              </Button>
            )}
          </Alert>
        )}

        {load.status === 'loaded' && (
          <>
            <Group justify="space-between" align="flex-start" gap="sm">
              <Title order={1} size="h2">
                {load.report.title}
              </Title>
              <Group gap="sm" className={classes.noPrint}>
                <Button onClick={() => window.print()}>Print</Button>
                <Button variant="default" loading={downloading} onClick={() => void download()}>
                  Download Report
                </Button>
              </Group>
            </Group>
            {load.report.sections.map((section, index) => (
              <Section key={index} section={section} index={index} />
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
