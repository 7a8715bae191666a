import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './App.tsx';
import { ErrorBannerProvider } from './components/errors/ErrorBannerProvider.tsx';
import { ErrorBoundary } from './components/errors/ErrorBoundary.tsx';
import { UpdateNotice } from './offline/UpdateNotice.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import { makeQueryClient } from './queryClient.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const queryClient = makeQueryClient();
const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <UpdateNotice />
      <ErrorBoundary>
        <ErrorBannerProvider>
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <SessionProvider>
                <App />
              </SessionProvider>
            </BrowserRouter>
          </QueryClientProvider>
        </ErrorBannerProvider>
      </ErrorBoundary>
    </MantineProvider>
  </StrictMode>,
);
