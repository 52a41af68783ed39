// /exchange/{from}-{to}: the widget with a pair preselected (lowercase codes in links).
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';

import catalogue from '@catalogue';

import { PageMeta } from '@/components/seo/page-meta';
import { catalogueCurrencies, useCurrencies } from '@/features/exchange/api/get-currencies';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { INITIAL_PAIR } from '@/features/exchange/lib/constants';
import { SAMPLE_ADDRESSES } from '@/features/exchange/lib/samples';
import { useSiteConfig } from '@/lib/site-config';

// Until the server's list arrives (and in the page prerendered at build time), the catalogue
// shipped with the app names the pair; the server's list, which may close a coin, then decides.
const SHIPPED = catalogueCurrencies(catalogue.currencies);

export default function ExchangePairRoute() {
  const { t } = useTranslation();
  const { pair = '' } = useParams();
  // 'New Exchange' on an order comes here with the amount the form starts over with.
  const startAmount = (useLocation().state as { amount?: string } | null)?.amount;
  const list = useCurrencies().data?.list ?? SHIPPED;
  const { data: config } = useSiteConfig();
  const [rawFrom = '', rawTo = ''] = pair.toUpperCase().split('-');
  const from = list.find((c) => c.code === rawFrom);
  const to = list.find((c) => c.code === rawTo);
  const valid = !!from && !!to && from.code !== to.code;
  const unknown = [rawFrom, rawTo].filter((code) => !list.some((c) => c.code === code));
  const fees = config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;
  const names = valid
    ? { from: from.coin, fromNetwork: from.network, to: to.coin, toNetwork: to.network }
    : null;
  const title = names ? t('pair.title', names) : t('pair.defaultTitle');
  // The server writes pair pages' heads from the same template (prerender.mjs hands it over
  // as `descriptionTemplate`): crawlers and readers see one description, each pair its own.
  const description = names ? t('pair.description', names) : t('meta.description');
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <PageMeta title={title} description={description} />
      <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
      {!valid ? (
        <p role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          {unknown.length > 0
            ? t('pair.unknown', {
                codes: unknown.filter(Boolean).join(', ') || pair,
                from: INITIAL_PAIR.from,
                to: INITIAL_PAIR.to,
              })
            : t('pair.same', { from: INITIAL_PAIR.from, to: INITIAL_PAIR.to })}
        </p>
      ) : null}
      <ExchangeWidget
        key={pair}
        initialFrom={valid ? from.code : INITIAL_PAIR.from}
        initialTo={valid ? to.code : INITIAL_PAIR.to}
        {...(fees ? { fees } : {})}
        {...(config?.sandbox ? { samples: SAMPLE_ADDRESSES } : {})}
        knownCurrencies={SHIPPED}
        {...(startAmount ? { initialAmount: startAmount } : {})}
      />
    </section>
  );
}
