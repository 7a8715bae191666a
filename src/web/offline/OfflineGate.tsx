import type { ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router';
import { Alert } from '@mantine/core';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

/**
 * The views that are the server's work alone: user management, the audit trail, the code
 * extractor, the doctor review, reports, the worklists and a patient's record.
 */
const serverOnlyPaths = [
  '/admin/*',
  '/codes',
  '/assessments/:id/review',
  '/assessments/:id/report',
  '/worklists/*',
  '/patients/:id',
];

export function needsServer(pathname: string): boolean {
  return serverOnlyPaths.some((pattern) => matchPath(pattern, pathname) !== null);
}

/** Offline, such a view says plainly that it needs a connection instead of failing its calls. */
export function OfflineGate({ children }: { children: ReactNode }) {
  const online = useOnline();
  const { pathname } = useLocation();
  if (online || !needsServer(pathname)) return children;
  return (
    <Alert color="gray" title={offlineTexts.offlineTitle} role="status">
      {offlineTexts.needsConnection}
    </Alert>
  );
}
