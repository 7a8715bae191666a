import { useState } from 'react';
import { Button } from '@mantine/core';
import { downloadReportText } from '../../api/reports.ts';
import { notifyFailure } from './notify.ts';
import { wizardTexts } from '../../pages/assessment/messages.ts';

/** The server's text report of a saved assessment (spec 9.5); an unsaved one has none yet. */
export function DownloadReportButton({ assessmentId }: { assessmentId: string | null }) {
  const [downloading, setDownloading] = useState(false);

  async function download() {
    if (assessmentId === null) {
      notifyFailure(wizardTexts.reportMissingData);
      return;
    }
    setDownloading(true);
    try {
      await downloadReportText(assessmentId);
    } catch {
      notifyFailure(wizardTexts.reportFailed);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Button variant="default" loading={downloading} onClick={() => void download()}>
      Download Report
    </Button>
  );
}
