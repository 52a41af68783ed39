// The signed-in user's menu (spec/accounts-and-pages.md §2.7), loaded on demand.
import { UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Menu } from '@/components/ui/menu';
import type { User } from '@/lib/auth';
import { useLogout } from '@/features/auth/api/logout';
import { useSendVerificationEmail } from '@/lib/verification-email';

import { ACCOUNT_LINKS } from './account-links';

export default function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const sendVerification = useSendVerificationEmail();
  const items = [
    ...(!user.email_verified
      ? [{ key: 'verify', label: t('nav.verifyEmail'), onSelect: () => sendVerification.mutate() }]
      : []),
    ...ACCOUNT_LINKS.map((link) => ({
      key: link.to,
      label: t(link.key),
      onSelect: () => void navigate(link.to),
    })),
    { key: 'sign-out', label: t('nav.signOut'), onSelect: () => logout.mutate() },
  ];
  return (
    <Menu
      label={`${t('nav.accountMenu')}: ${user.username}`}
      heading={user.username}
      variant="outline"
      items={items}
      trigger={
        <>
          <UserRound aria-hidden="true" className="size-4" />
          <span className="max-w-32 truncate">{user.username}</span>
        </>
      }
    />
  );
}

export function MobileSignOut() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <Button variant="outline" className="w-full" onClick={() => logout.mutate()}>
      {t('nav.signOut')}
    </Button>
  );
}
