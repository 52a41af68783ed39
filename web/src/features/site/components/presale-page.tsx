// Presale: what the utility token is meant to give (spec/accounts-and-pages.md §1, §9: fees up
// to 50% off, governance, staking, priority support), its fee-discount tiers worked out on this
// site's fees, and the truth about the sale: none here unless the operator links one.
import { Coins, Headphones, Landmark, Percent } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

import { formatNumber, formatPercent } from '@/lib/format';
import { useSiteConfig } from '@/lib/site-config';
import { feesOf, percentFees } from '@/lib/site-fees';

/** Tokens held → discount on the service fee, in percent. */
export const DISCOUNT_TIERS = [
  { held: 1_000, discount: 10 },
  { held: 10_000, discount: 25 },
  { held: 50_000, discount: 40 },
  { held: 100_000, discount: 50 },
] as const;

/** A fee after a discount, e.g. 0.5% − 40% = 0.3%. */
export function discounted(fee: string, discount: number): string {
  const value = (Number(fee) * (100 - discount)) / 100;
  return String(Math.round(value * 1000) / 1000);
}

export default function PresalePage() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const fees = feesOf(config) ?? { float: '0.5', fixed: '1.0' };
  const { float, fixed } = percentFees(config, i18n.language);
  const percent = (value: number | string) => formatPercent(value, i18n.language);
  const benefits = [
    { key: 'fees', Icon: Percent },
    { key: 'governance', Icon: Landmark },
    { key: 'staking', Icon: Coins },
    { key: 'support', Icon: Headphones },
  ] as const;
  return (
    <div className="mx-auto max-w-5xl space-y-10 px-4 py-12">
      <PageMeta title={t('presale.title')} description={t('presale.subtitle')} />
      <header>
        <h1 className="text-4xl font-bold text-slate-900">{t('presale.title')}</h1>
        <p className="mt-3 max-w-3xl text-lg text-slate-700">{t('presale.subtitle')}</p>
      </header>
      <section aria-labelledby="benefits">
        <h2 id="benefits" className="text-2xl font-semibold text-slate-900">
          {t('presale.benefitsTitle')}
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {benefits.map(({ key, Icon }) => (
            <Card as="li" key={key}>
              <Icon aria-hidden="true" className="size-7 text-teal-700" />
              <h3 className="mt-2 font-semibold text-slate-900">
                {t(`presale.benefits.${key}.title`)}
              </h3>
              <p className="mt-1 text-slate-700">{t(`presale.benefits.${key}.text`)}</p>
            </Card>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tiers">
        <h2 id="tiers" className="text-2xl font-semibold text-slate-900">
          {t('presale.tiersTitle')}
        </h2>
        <p className="mt-2 text-slate-700">{t('presale.tiersText', { float, fixed })}</p>
        <Card padding="none" className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t('presale.tierHeld')}
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t('presale.tierDiscount')}
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t('presale.tierFloat')}
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t('presale.tierFixed')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {DISCOUNT_TIERS.map((tier) => (
                <tr key={tier.held}>
                  <td className="px-4 py-3">≥ {formatNumber(tier.held, i18n.language)}</td>
                  <td className="px-4 py-3 font-medium">
                    {formatNumber(tier.discount / 100, i18n.language, { style: 'percent' })}
                  </td>
                  <td className="px-4 py-3">{percent(discounted(fees.float, tier.discount))}</td>
                  <td className="px-4 py-3">{percent(discounted(fees.fixed, tier.discount))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </section>
      <section
        aria-labelledby="presale-status"
        className="rounded-2xl bg-amber-50 p-6 ring-1 ring-amber-200"
      >
        <h2 id="presale-status" className="text-xl font-semibold text-amber-950">
          {t('presale.statusTitle')}
        </h2>
        {config?.presale_url ? (
          <div className="mt-2 space-y-3">
            <p className="text-amber-950">{t('presale.open')}</p>
            <a href={config.presale_url} rel="noopener noreferrer" className={buttonVariants()}>
              {t('presale.openLink')}
            </a>
          </div>
        ) : (
          <p className="mt-2 text-amber-950">{t('presale.closed')}</p>
        )}
        <p className="mt-3 text-sm text-amber-900">{t('presale.risk')}</p>
      </section>
    </div>
  );
}
