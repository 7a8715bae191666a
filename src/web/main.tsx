import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { App } from './App.tsx';
import { ErrorBannerProvider } from './components/errors/ErrorBannerProvider.tsx';
import { ErrorBoundary } from './components/errors/ErrorBoundary.tsx';
import { UpdateNotice } from './offline/UpdateNotice.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <UpdateNotice />
      <ErrorBoundary>
        <ErrorBannerProvider>
          <BrowserRouter>
            <SessionProvider>
              <App />
            </SessionProvider>
          </BrowserRouter>
        </ErrorBannerProvider>
      </ErrorBoundary>
    </MantineProvider>
  </StrictMode>,
);
