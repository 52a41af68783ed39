// Wallet: coming soon, with links to / and /orders and a pointer to notifications in the
// profile settings (spec/accounts-and-pages.md §2.15).
import { Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

export default function WalletPage() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center">
      <PageMeta title={t('account.wallet.title')} noindex />
      <Wallet aria-hidden="true" className="mx-auto size-14 text-teal-700" />
      <h1 className="mt-4 text-3xl font-bold text-slate-900">{t('account.wallet.title')}</h1>
      <Badge tone="warning" className="mt-2">
        {t('account.wallet.badge')}
      </Badge>
      <p className="mt-6 text-slate-700">{t('account.wallet.text')}</p>
      <p className="mt-3 text-slate-700">
        {t('account.wallet.notify')}{' '}
        <Link to={paths.profile} className="font-medium text-teal-800 underline">
          {t('account.wallet.profile')}
        </Link>
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.home} className={buttonVariants()}>
          {t('account.wallet.exchange')}
        </Link>
        <Link to={paths.orders} className={buttonVariants({ variant: 'outline' })}>
          {t('account.wallet.orders')}
        </Link>
      </div>
    </section>
  );
}
