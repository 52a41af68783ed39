// The phone menu, loaded when it is first opened: the landing page's first screen does without.
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { type User } from '@/lib/auth';
import { lazyWithTexts } from '@/lib/i18n';
import { useSiteConfig } from '@/lib/site-config';

import { GuestActions } from './guest-actions';
import { ACCOUNT_LINKS } from './account-links';
import { mainLinks } from './nav-links';

const MobileSignOut = lazyWithTexts(() =>
  import('./user-menu').then((m) => ({ default: m.MobileSignOut })),
);

const LINK = 'flex min-h-11 items-center rounded-md px-2 hover:bg-slate-100';

export default function MobileMenu({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  return (
    <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pb-4 md:hidden">
      {user ? (
        <p className="py-3 font-medium text-slate-900">
          {t('nav.greeting', { name: user.username })}
        </p>
      ) : null}
      <nav aria-label={t('nav.mainNavigation')} className="flex flex-col py-2">
        {mainLinks(config).map((link) => (
          <Link key={link.to} to={link.to} onClick={onClose} className={LINK}>
            {t(link.key)}
          </Link>
        ))}
        {user
          ? ACCOUNT_LINKS.map((link) => (
              <Link key={link.to} to={link.to} onClick={onClose} className={LINK}>
                {t(link.key)}
              </Link>
            ))
          : null}
      </nav>
      {user ? (
        <Suspense fallback={null}>
          <MobileSignOut />
        </Suspense>
      ) : (
        <GuestActions className="pt-2" />
      )}
    </div>
  );
}
