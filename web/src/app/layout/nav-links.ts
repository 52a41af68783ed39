import { paths } from '@/config/paths';
import type { SiteConfig } from '@/lib/site-config';

/**
 * The main menu (§2.7), with order tracking first. Presale takes a slot only where the
 * operator runs one (`FERRY_PRESALE_URL`): the page says so when none is open, the menu does not.
 */
export function mainLinks(config: SiteConfig | undefined) {
  return [
    { to: paths.track, key: 'nav.track' },
    { to: paths.about, key: 'nav.about' },
    { to: paths.blog, key: 'nav.blog' },
    ...(config?.presale_url ? [{ to: paths.presale, key: 'nav.presale' } as const] : []),
    { to: paths.faq, key: 'nav.faq' },
    { to: paths.apiDocs, key: 'nav.api' },
    { to: paths.status, key: 'nav.status' },
  ] as const;
}
