import { lazy, Suspense, useCallback, useState } from 'react';
import { NavLink as RouterNavLink, Outlet, useMatch, useNavigate } from 'react-router';
import {
  AppShell,
  Badge,
  Box,
  Burger,
  Button,
  Group,
  NavLink,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { can, type Action } from '../../shared/permissions.ts';
import { productTexts } from '../../shared/texts.ts';
import { useAwaitingReviewCount } from '../hooks/useAwaitingReviewCount.ts';
import { useSession, useSignedInUser } from '../hooks/useSession.ts';
import { useWhenIdle } from '../hooks/useWhenIdle.ts';
import { errorMessage } from '../forms.ts';
import { OfflineGate } from '../offline/OfflineGate.tsx';
import { OfflineStatus } from '../offline/OfflineStatus.tsx';
import { useOutbox } from '../offline/OutboxContext.ts';
import { useActiveRuleSetVersion } from '../hooks/useActiveRuleSetVersion.ts';
import { AppFooter, guidelinesVersionText } from './AppFooter.tsx';
import { LoadingText } from './errors/LoadingText.tsx';
import { UserIdentity, userMenuLabel } from './UserIdentity.tsx';
import type { UserMenu, UserMenuHandoff } from './UserMenu.tsx';

// Asked only when signing out with saves waiting; its modal is not part of the first view.
const SignOutConfirm = lazy(() =>
  import('../offline/SignOutConfirm.tsx').then((module) => ({ default: module.SignOutConfirm })),
);

interface NavigationItem {
  label: string;
  to: string;
  /** Only users whose role may perform this action see the item. */
  action?: Action;
}

/** The views of the signed-in app; later screens add theirs here. */
const secondFactorPath = '/account/second-factor';

const navigationItems: NavigationItem[] = [
  { label: 'Dashboard', to: '/' },
  { label: 'Awaiting Review', to: '/worklists/review', action: 'worklist.review' },
  { label: 'Follow-up Due', to: '/worklists/follow-up', action: 'worklist.followUp' },
  { label: 'District', to: '/district', action: 'orgUnit.summary' },
  { label: 'Guidelines', to: '/guidelines' },
  { label: 'Users', to: '/admin/users', action: 'users.manage' },
  { label: 'Audit Trail', to: '/admin/audit', action: 'audit.read' },
];

function NavigationLink({
  item,
  count,
  onNavigate,
}: {
  item: NavigationItem;
  /** Shown as a badge beside the label. */
  count?: number | undefined;
  onNavigate: () => void;
}) {
  const active = useMatch({ path: item.to, end: item.to === '/' }) !== null;
  return (
    <NavLink
      component={RouterNavLink}
      to={item.to}
      end={item.to === '/'}
      label={item.label}
      active={active}
      onClick={onNavigate}
      aria-label={count === undefined ? undefined : `${item.label}, ${count}`}
      rightSection={
        count === undefined ? undefined : (
          <Badge size="sm" variant="filled" color={count > 0 ? 'red' : 'gray'} aria-hidden>
            {count}
          </Badge>
        )
      }
    />
  );
}

/**
 * The user menu. Its popover library is not needed for the first view, so a button that looks the
 * same stands in until the browser is idle or the user reaches for it; the menu then takes over
 * the focus and an open request the stand-in received.
 */
function UserMenuSlot() {
  const user = useSignedInUser();
  const [LoadedMenu, setLoadedMenu] = useState<typeof UserMenu | null>(null);
  const [handoff, setHandoff] = useState<UserMenuHandoff>({ focused: false, opened: false });
  // A failed load leaves the stand-in; the next reach for it tries again.
  const load = useCallback(() => {
    import('./UserMenu.tsx').then(
      (module) => setLoadedMenu(() => module.UserMenu),
      () => undefined,
    );
  }, []);
  useWhenIdle(load);
  if (LoadedMenu !== null) {
    return <LoadedMenu secondFactorPath={secondFactorPath} handoff={handoff} />;
  }
  return (
    <UnstyledButton
      aria-label={userMenuLabel(user)}
      onPointerEnter={load}
      onFocus={() => {
        load();
        setHandoff((state) => ({ ...state, focused: true }));
      }}
      onBlur={() => setHandoff((state) => ({ ...state, focused: false }))}
      onClick={() => {
        load();
        setHandoff((state) => ({ ...state, opened: true }));
      }}
    >
      <UserIdentity align="right" />
    </UnstyledButton>
  );
}

function SignOutButton() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const { entries: waiting } = useOutbox();
  const [confirming, setConfirming] = useState(false);

  async function handleSignOut() {
    setConfirming(false);
    setSigningOut(true);
    try {
      await signOut();
      // The next person to sign in starts from the dashboard, not from this user's page.
      void navigate('/', { replace: true });
    } catch (error) {
      setSigningOut(false);
      notifications.show({ color: 'red', title: 'Sign out failed', message: errorMessage(error) });
    }
  }

  return (
    <>
      <Button
        variant="default"
        size="sm"
        loading={signingOut}
        onClick={() => (waiting.length > 0 ? setConfirming(true) : void handleSignOut())}
      >
        Sign out
      </Button>
      {confirming && (
        <Suspense fallback={null}>
          <SignOutConfirm
            entries={waiting}
            opened
            onCancel={() => setConfirming(false)}
            onConfirm={() => void handleSignOut()}
          />
        </Suspense>
      )}
    </>
  );
}

/** The main page's footer names the active rule set (decisions.md section 3). */
function MainFooter() {
  const version = useActiveRuleSetVersion();
  return (
    <AppFooter
      guidelinesVersion={version === undefined ? undefined : guidelinesVersionText(version)}
    />
  );
}

/** The signed-in frame: header with the user and sign-out, navigation, the view, the footer. */
export function AppLayout() {
  const user = useSignedInUser();
  const [navigationOpened, { toggle: toggleNavigation, close: closeNavigation }] =
    useDisclosure(false);
  // Below Mantine's `sm` breakpoint (48em) the navigation collapses into the burger menu.
  const narrow = useMediaQuery('(max-width: 47.99em)', undefined, {
    getInitialValueInEffect: false,
  });
  // Collapsed, the navigation is only moved off screen; hiding it keeps its links out of the
  // tab order and away from screen readers.
  const navigationHidden = narrow && !navigationOpened;
  const visibleItems = navigationItems.filter(
    (item) => item.action === undefined || can(user.role, item.action),
  );
  const awaitingReviewCount = useAwaitingReviewCount(can(user.role, 'worklist.review'));

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navigationOpened } }}
      // On a phone a fixed footer would cover a fifth of the screen, and the fields under it:
      // there it ends the page instead (below).
      footer={narrow ? undefined : { height: 64 }}
      padding="md"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navigationOpened}
              onClick={toggleNavigation}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
              aria-expanded={navigationOpened}
              aria-controls="main-navigation"
            />
            <Text fw={700} fz={{ base: 'md', sm: 'lg' }} lh={1.2}>
              {productTexts.systemName}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <OfflineStatus />
            <Box visibleFrom="sm">
              <UserMenuSlot />
            </Box>
            <SignOutButton />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="sm"
        id="main-navigation"
        aria-label="Main"
        style={navigationHidden ? { visibility: 'hidden' } : undefined}
      >
        <Stack gap="xs" justify="space-between" h="100%">
          <Box>
            {visibleItems.map((item) => (
              <NavigationLink
                key={item.to}
                item={item}
                count={item.to === '/worklists/review' ? awaitingReviewCount : undefined}
                onNavigate={closeNavigation}
              />
            ))}
          </Box>
          <Box hiddenFrom="sm">
            <Box px="sm">
              <UserIdentity align="left" />
            </Box>
            <NavigationLink
              item={{ label: 'Two-step sign-in', to: secondFactorPath }}
              onNavigate={closeNavigation}
            />
          </Box>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The views load on first visit (App.tsx); the frame stays while one arrives. */}
        <Suspense fallback={<LoadingText />}>
          <OfflineGate>
            <Outlet />
          </OfflineGate>
        </Suspense>
      </AppShell.Main>
      {narrow ? (
        <Box component="footer" px="md" py="sm" bg="var(--mantine-color-body)" bd="0">
          <MainFooter />
        </Box>
      ) : (
        <AppShell.Footer>
          <MainFooter />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}
