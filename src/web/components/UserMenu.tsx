import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Menu, UnstyledButton } from '@mantine/core';
import { useSignedInUser } from '../hooks/useSession.ts';
import { UserIdentity, userMenuLabel } from './UserIdentity.tsx';

/** What the user did with the stand-in button while this menu was loading. */
export interface UserMenuHandoff {
  focused: boolean;
  opened: boolean;
}

/**
 * The user's name and role opening the user menu: the account's own pages. It loads after the
 * first view (its popover library is large); it takes over focus and an open request from the
 * stand-in button shown meanwhile.
 */
export function UserMenu({
  secondFactorPath,
  handoff,
}: {
  secondFactorPath: string;
  handoff: UserMenuHandoff;
}) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const target = useRef<HTMLButtonElement>(null);
  const [{ focused, opened }] = useState(handoff);
  // An opened menu moves focus into itself; a closed one keeps it on its button.
  useEffect(() => {
    if (focused && !opened) target.current?.focus();
  }, [focused, opened]);
  return (
    // No focus placeholder: a role=presentation child of the menu is not allowed in a menu (axe
    // critical); opened, the menu puts focus on its item instead.
    <Menu
      position="bottom-end"
      withinPortal
      defaultOpened={opened}
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <UnstyledButton ref={target} aria-label={userMenuLabel(user)}>
          <UserIdentity align="right" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => void navigate(secondFactorPath)}>Two-step sign-in</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
