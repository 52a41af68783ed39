// /exchange/{from}-{to}: the widget with a pair preselected (lowercase codes in links).
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Spinner } from '@/components/ui/spinner';
import { useCurrencies } from '@/features/exchange/api/get-currencies';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { INITIAL_PAIR } from '@/features/exchange/lib/constants';
import { SAMPLE_ADDRESSES } from '@/features/exchange/lib/samples';
import { useSiteConfig } from '@/features/site/api/get-site-config';

export default function ExchangePairRoute() {
  const { t } = useTranslation();
  const { pair = '' } = useParams();
  const { data: currencies } = useCurrencies();
  const { data: config } = useSiteConfig();
  const [rawFrom = '', rawTo = ''] = pair.toUpperCase().split('-');
  if (!currencies) return <Spinner label={t('common.loading')} />;
  const from = currencies.list.find((c) => c.code === rawFrom);
  const to = currencies.list.find((c) => c.code === rawTo);
  const valid = !!from && !!to && from.code !== to.code;
  const unknown = [rawFrom, rawTo].filter((code) => !currencies.list.some((c) => c.code === code));
  const fees = config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;
  const title = valid
    ? t('pair.title', {
        from: from.coin,
        fromNetwork: from.network,
        to: to.coin,
        toNetwork: to.network,
      })
    : t('pair.defaultTitle');
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <PageMeta title={title} description={t('meta.description')} />
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
      />
    </section>
  );
}
