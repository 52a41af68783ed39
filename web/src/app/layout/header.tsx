// Header of spec/accounts-and-pages.md §2.7.
import { Menu as MenuIcon, Moon, X } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { Button, buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { type User, useUser } from '@/lib/auth';
import { useSiteConfig } from '@/lib/site-config';
import { cn } from '@/lib/utils';
import { lazyWithTexts } from '@/lib/i18n';

import { LanguageMenu } from './language-menu';
import { ACCOUNT_LINKS } from './nav-links';

// Signed-in controls load only for signed-in visitors: most visitors never need them.
const UserMenu = lazyWithTexts(() => import('./user-menu'));
const MobileSignOut = lazyWithTexts(() =>
  import('./user-menu').then((m) => ({ default: m.MobileSignOut })),
);

const NAV_LINKS = [
  { to: paths.about, key: 'nav.about' },
  { to: paths.blog, key: 'nav.blog' },
  { to: paths.presale, key: 'nav.presale' },
  { to: paths.faq, key: 'nav.faq' },
  { to: paths.apiDocs, key: 'nav.api' },
  { to: paths.status, key: 'nav.status' },
] as const;

function Logo() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  return (
    <Link
      to={paths.home}
      className="flex items-center gap-2 text-lg font-bold text-slate-900"
      aria-label={t('nav.home', { siteName })}
    >
      <img src="/favicon.svg" alt="" className="size-8" width="32" height="32" />
      <span>{siteName}</span>
    </Link>
  );
}

function GuestActions({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Link to={paths.signIn} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
        {t('nav.signIn')}
      </Link>
      <Link to={paths.signUp} className={buttonVariants({ variant: 'primary', size: 'sm' })}>
        {t('nav.signUp')}
      </Link>
    </div>
  );
}

function ThemeButton() {
  const { t } = useTranslation();
  return (
    <Button
      variant="ghost"
      size="icon"
      disabled
      aria-label={`${t('nav.theme')}: ${t('nav.themeComingSoon')}`}
      title={t('nav.themeComingSoon')}
    >
      <Moon aria-hidden="true" className="size-4" />
    </Button>
  );
}

function MobileMenu({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pb-4 md:hidden">
      {user ? (
        <p className="py-3 font-medium text-slate-900">
          {t('nav.greeting', { name: user.username })}
        </p>
      ) : null}
      <nav aria-label={t('nav.mainNavigation')} className="flex flex-col py-2">
        {NAV_LINKS.map((link) => (
          <Link
            key={link.to}
            to={link.to}
            onClick={onClose}
            className="rounded-md px-2 py-2 hover:bg-slate-100"
          >
            {t(link.key)}
          </Link>
        ))}
        {user
          ? ACCOUNT_LINKS.map((link) => (
              <Link
                key={link.to}
                to={link.to}
                onClick={onClose}
                className="rounded-md px-2 py-2 hover:bg-slate-100"
              >
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

export function Header() {
  const { t } = useTranslation();
  const { user } = useUser();
  const [mobileOpen, setMobileOpen] = useState(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav aria-label={t('nav.mainNavigation')} className="hidden items-center gap-1 md:flex">
          {NAV_LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100',
                  isActive && 'text-teal-800',
                )
              }
            >
              {t(link.key)}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-1">
          <LanguageMenu />
          <ThemeButton />
          <div className="hidden md:block">
            {user ? (
              <Suspense fallback={null}>
                <UserMenu user={user} />
              </Suspense>
            ) : (
              <GuestActions />
            )}
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            aria-label={mobileOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={() => setMobileOpen((open) => !open)}
          >
            {mobileOpen ? <X aria-hidden="true" /> : <MenuIcon aria-hidden="true" />}
          </Button>
        </div>
      </div>
      {mobileOpen ? <MobileMenu user={user} onClose={() => setMobileOpen(false)} /> : null}
    </header>
  );
}
