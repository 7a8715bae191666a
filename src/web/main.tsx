// First: how zod parses is settled before any schema is built (zodConfig.ts).
import './zodConfig.ts';
// Mantine's styles for the components the app uses (charts and notifications included), in the
// order of Mantine's full stylesheet (a component's dependencies first), instead of all of it.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Accordion.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Fieldset.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/RadioCard.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Title.css';
import '@mantine/notifications/styles.css';
import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './App.tsx';
import { ErrorBannerProvider } from './components/errors/ErrorBannerProvider.tsx';
import { ErrorBoundary } from './components/errors/ErrorBoundary.tsx';
import { UpdateNotice } from './offline/UpdateNotice.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import { makeQueryClient } from './queryClient.ts';
import { cssVariablesResolver, theme } from './theme.ts';

// The container and its transitions load after the first view; a notification shown before it
// arrives waits in the notifications store and appears with it.
const NotificationsContainer = lazy(() =>
  import('./components/NotificationsContainer.tsx').then((module) => ({
    default: module.NotificationsContainer,
  })),
);

const queryClient = makeQueryClient();
const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');

const reactRoot = createRoot(root);
// The first render, like every later one the session starts, as a transition: React renders it in
// pieces between which the browser can handle input, instead of in one long task.
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Suspense fallback={null}>
          <NotificationsContainer />
        </Suspense>
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
  ),
);
