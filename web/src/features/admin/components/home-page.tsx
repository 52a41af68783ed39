// The console's home: who is here, with which role, and the way to the orders. (The figures
// of the day come with a later slice.)
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { buttonVariants } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import { paths } from '@/config/paths';

import type { ConsoleMe } from '../types';
import { ConsoleTitle } from './admin-layout';

export function HomePage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const role = t(`admin.roles.${me.role}`);
  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.nav.home')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.home.title')}</h1>
        {me.token ? null : (
          <p className="mt-2 text-slate-700">{t('admin.home.signedInAs', { email: me.email })}</p>
        )}
        <p className="mt-1 text-slate-700">
          {t('admin.home.yourRole', { role })} {t(`admin.home.roleText.${me.role}`)}
        </p>
      </div>
      <Section title={t('admin.home.ordersTitle')}>
        <p className="text-sm text-slate-700">{t('admin.home.ordersText')}</p>
        <Link to={paths.adminOrders} className={buttonVariants()}>
          {t('admin.home.ordersLink')}
        </Link>
      </Section>
    </div>
  );
}
