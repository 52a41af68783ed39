// Header of spec/accounts-and-pages.md §2.7, with order tracking and the theme control.
import { Menu as MenuIcon, X } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { useSiteConfig } from '@/lib/site-config';
import { cn } from '@/lib/utils';
import { lazyWithTexts } from '@/lib/i18n';

import { GuestActions } from './guest-actions';
import { mainLinks } from './nav-links';

// Signed-in controls load only for signed-in visitors, the phone menu when it is opened: most
// visitors never need them.
const UserMenu = lazyWithTexts(() => import('./user-menu'));
const MobileMenu = lazyWithTexts(() => import('./mobile-menu'));
const HeaderMenus = lazyWithTexts(() => import('./header-menus'));

/** Where the language and theme menus go while their code loads: the same room, no shift. */
function MenusPlaceholder() {
  return <span aria-hidden="true" className="inline-block h-11 w-[6.5rem] md:h-9" />;
}

function Logo() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  return (
    <Link
      to={paths.home}
      className="flex min-h-11 items-center gap-2 text-lg font-bold text-slate-900"
      aria-label={t('nav.home', { siteName })}
    >
      <img src="/favicon.svg" alt="" className="size-8" width="32" height="32" />
      <span>{siteName}</span>
    </Link>
  );
}

export function Header() {
  const { t } = useTranslation();
  const { user } = useUser();
  const { data: config } = useSiteConfig();
  const [mobileOpen, setMobileOpen] = useState(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Logo />
        <nav aria-label={t('nav.mainNavigation')} className="hidden items-center gap-1 md:flex">
          {mainLinks(config).map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                cn(
                  'inline-flex h-11 items-center rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100',
                  isActive && 'text-teal-800',
                )
              }
            >
              {t(link.key)}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-1">
          <Suspense fallback={<MenusPlaceholder />}>
            <HeaderMenus />
          </Suspense>
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
      {mobileOpen ? (
        <Suspense fallback={null}>
          <MobileMenu user={user} onClose={() => setMobileOpen(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
