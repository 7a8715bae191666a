import { useState } from 'react';
import { offlineTexts } from '../../offline/texts.ts';
import { Button } from '@mantine/core';
import { downloadReportText } from '../../api/reports.ts';
import { useOnline } from '../../offline/useOnline.ts';
import { notifyFailure } from './notify.ts';
import { wizardTexts } from './messages.ts';

/** The server's text report of a saved assessment (spec 9.5); an unsaved one has none yet. */
export function DownloadReportButton({ assessmentId }: { assessmentId: string | null }) {
  const [downloading, setDownloading] = useState(false);
  const online = useOnline();

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
    <Button
      variant="default"
      loading={downloading}
      disabled={!online}
      title={online ? undefined : offlineTexts.needsConnection}
      onClick={() => void download()}
    >
      Download Report
    </Button>
  );
}
