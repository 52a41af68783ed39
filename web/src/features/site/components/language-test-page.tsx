// /language-test: every language of the site side by side with the same sample texts and a
// number and a date in its own format, for translators checking their work in context.
import i18n from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { Card } from '@/components/ui/card';
import { formatUsd } from '@/lib/format';
import { loadLanguageTexts } from '@/lib/i18n';
import { LANGUAGES, type LanguageCode } from '@/lib/languages';

/** Keys every language must render well: navigation, the swap form, an order status, errors. */
const SAMPLE_KEYS = [
  'home.title',
  'home.subtitle',
  'nav.signIn',
  'exchange.exchangeNow',
  'order.status.COMPLETED',
  'notFound.title',
  'claims.completionTime',
] as const;

function Row({ code, name }: { code: LanguageCode; name: string }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    loadLanguageTexts(code)
      .then(() => live && setReady(true))
      .catch(() => live && setReady(false));
    return () => {
      live = false;
    };
  }, [code]);
  const fixed = i18n.getFixedT(code);
  const sampleDate = new Date(Date.UTC(2025, 4, 1, 14, 30));
  return (
    <tr lang={code} className="align-top">
      <th scope="row" className="px-4 py-3 text-left font-medium whitespace-nowrap">
        {name} <span className="text-slate-500">({code})</span>
      </th>
      <td className="px-4 py-3">
        {ready === null ? t('languageTest.loading', { language: name }) : null}
        {ready === false ? t('languageTest.failed', { language: name }) : null}
        {ready ? (
          <ul className="space-y-1">
            {SAMPLE_KEYS.map((key) => (
              <li key={key}>
                <span className="mr-2 font-mono text-xs text-slate-500">{key}</span>
                {fixed(key, { siteName: 'Ferry' })}
              </li>
            ))}
          </ul>
        ) : null}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        <div>{formatUsd(1234567.89, code)}</div>
        <div>
          {new Intl.DateTimeFormat(code, {
            dateStyle: 'long',
            timeStyle: 'short',
            timeZone: 'UTC',
          }).format(sampleDate)}
        </div>
      </td>
    </tr>
  );
}

export default function LanguageTestPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-12">
      <PageMeta title={t('languageTest.title')} noindex />
      <header>
        <h1 className="text-4xl font-bold text-slate-900">{t('languageTest.title')}</h1>
        <p className="mt-2 text-slate-700">{t('languageTest.subtitle')}</p>
      </header>
      <Card padding="none" className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                {t('languageTest.language')}
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                {t('languageTest.sample')}
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                {t('languageTest.numbers')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {LANGUAGES.map((language) => (
              <Row key={language.code} code={language.code} name={language.name} />
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
