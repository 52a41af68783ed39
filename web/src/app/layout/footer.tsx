// Footer of spec/accounts-and-pages.md §2.7: quick links, resources, supported coins, copyright.
// Below the fold of every page: it loads after the first screen (app-layout.tsx).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useSiteConfig } from '@/lib/site-config';
import { useCurrentYear } from '@/lib/use-current-year';

const COLUMNS = [
  {
    title: 'footer.quickLinks',
    links: [
      { to: paths.home, key: 'footer.exchange' },
      { to: paths.markets, key: 'footer.markets' },
      { to: paths.allPairs, key: 'footer.allPairs' },
      { to: paths.convert, key: 'footer.convert' },
      { to: paths.track, key: 'footer.trackOrder' },
    ],
  },
  {
    title: 'footer.resources',
    links: [
      { to: paths.help, key: 'footer.help' },
      { to: paths.faq, key: 'footer.faq' },
      { to: paths.blog, key: 'footer.blog' },
      { to: paths.apiDocs, key: 'footer.apiDocs' },
      { to: paths.status, key: 'footer.status' },
    ],
  },
  {
    title: 'footer.company',
    links: [
      { to: paths.about, key: 'footer.about' },
      { to: paths.contact, key: 'footer.contact' },
      { to: paths.terms, key: 'footer.terms' },
      { to: paths.privacy, key: 'footer.privacy' },
    ],
  },
] as const;

// Coins from the spec's catalogue, shown with their logos.
const SUPPORTED_COINS = [
  'BTC',
  'ETH',
  'USDT',
  'USDC',
  'BNB',
  'XMR',
  'SOL',
  'XRP',
  'LTC',
  'DOGE',
  'TRX',
  'TON',
] as const;

export default function Footer() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  const year = useCurrentYear();
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold">{siteName}</p>
          <p className="mt-2 text-sm text-slate-600">{t('footer.tagline')}</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={t(column.title)}>
            <h2 className="text-sm font-semibold text-slate-900">{t(column.title)}</h2>
            <ul className="mt-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-flex min-h-11 min-w-11 items-center text-slate-600 hover:text-teal-800 md:min-h-8"
                  >
                    {t(link.key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-6">
        <h2 className="text-sm font-semibold text-slate-900">{t('footer.supportedCoins')}</h2>
        <ul className="mt-3 flex flex-wrap gap-2">
          {SUPPORTED_COINS.map((coin) => (
            <li
              key={coin}
              className="flex items-center gap-1.5 rounded-full border border-slate-200 px-2.5 py-1 text-xs font-medium text-slate-700"
            >
              <img
                src={`/coins/${coin.toLowerCase()}.svg`}
                alt=""
                width={16}
                height={16}
                loading="lazy"
                className="size-4"
              />
              {coin}
            </li>
          ))}
        </ul>
        <p className="mt-8 border-t border-slate-200 pt-6 text-sm text-slate-600">
          {t('footer.copyright', { year, siteName })}
        </p>
      </div>
    </footer>
  );
}
