// "Page Not Found": an unknown address, and the back office to anyone who is no operator (to
// them it does not exist). Its texts are page texts.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-lg px-4 py-24 text-center">
      <PageMeta title={t('notFound.title')} noindex />
      <p className="text-6xl font-bold text-teal-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-semibold">{t('notFound.title')}</h1>
      <p className="mt-3 text-slate-600">{t('notFound.description')}</p>
      <Link to={paths.home} className={buttonVariants({ className: 'mt-8' })}>
        {t('notFound.returnHome')}
      </Link>
    </section>
  );
}
