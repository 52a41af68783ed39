// Contact (spec/accounts-and-pages.md §2.14, §4.4, §5, §8): three info cards, the message
// form (idle, sending, success with the form cleared, or the error in a red box), office
// details and support hours.
import { useMutation } from '@tanstack/react-query';
import { Activity, BookOpen, Mail } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useSiteConfig } from '@/lib/site-config';
import { cn } from '@/lib/utils';

import {
  CONTACT_CATEGORIES,
  type ContactCategory,
  type ContactMessage,
  sendContactMessage,
} from '../api/send-message';

const EMPTY: ContactMessage = {
  name: '',
  email: '',
  subject: '',
  category: 'general',
  message: '',
  website: '',
};

function InfoCard({
  icon,
  title,
  text,
  children,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <Card as="section" padding="lg">
      {icon}
      <h2 className="mt-3 text-lg font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
      <div className="mt-3">{children}</div>
    </Card>
  );
}

export default function ContactPage() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const [values, setValues] = useState<ContactMessage>(EMPTY);
  const set = <K extends keyof ContactMessage>(key: K, value: ContactMessage[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const send = useMutation({
    mutationFn: sendContactMessage,
    onSuccess: () => setValues(EMPTY),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(values);
  };
  const supportEmail = config?.support_email;
  const icon = 'size-8 text-teal-700';

  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-12">
      <PageMeta title={t('contact.title')} description={t('contact.subtitle')} />
      <header>
        <h1 className="text-4xl font-bold text-slate-900">{t('contact.title')}</h1>
        <p className="mt-2 text-slate-700">{t('contact.subtitle')}</p>
      </header>
      <div className="grid gap-6 md:grid-cols-3">
        <InfoCard
          icon={<Mail aria-hidden="true" className={icon} />}
          title={t('contact.emailTitle')}
          text={t('contact.emailText')}
        >
          {supportEmail ? (
            <a
              href={`mailto:${supportEmail}`}
              className="inline-flex min-h-11 items-center font-medium break-all text-teal-800 underline"
            >
              {supportEmail}
            </a>
          ) : null}
        </InfoCard>
        <InfoCard
          icon={<BookOpen aria-hidden="true" className={icon} />}
          title={t('contact.helpTitle')}
          text={t('contact.helpText')}
        >
          <Link
            to={paths.help}
            className="inline-flex min-h-11 items-center font-medium text-teal-800 underline"
          >
            {t('contact.helpLink')}
          </Link>
        </InfoCard>
        <InfoCard
          icon={<Activity aria-hidden="true" className={icon} />}
          title={t('contact.statusTitle')}
          text={t('contact.statusText')}
        >
          <Link
            to={paths.status}
            className="inline-flex min-h-11 items-center font-medium text-teal-800 underline"
          >
            {t('contact.statusLink')}
          </Link>
        </InfoCard>
      </div>

      <div className="grid gap-8 lg:grid-cols-3">
        <Card as="section" padding="lg" aria-labelledby="contact-form" className="lg:col-span-2">
          <h2 id="contact-form" className="text-xl font-semibold text-slate-900">
            {t('contact.formTitle')}
          </h2>
          {send.isSuccess ? (
            <p
              role="status"
              className="mt-4 rounded-lg border border-teal-200 bg-teal-50 p-3 text-teal-900"
            >
              {t('contact.success')}
            </p>
          ) : null}
          {send.error ? (
            <p
              role="alert"
              className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800"
            >
              {send.error.message || t('contact.failed')}
            </p>
          ) : null}
          <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field label={t('contact.name')}>
              <input
                className={inputClass}
                required
                maxLength={100}
                autoComplete="name"
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
              />
            </Field>
            <Field label={t('contact.email')}>
              <input
                type="email"
                className={inputClass}
                required
                maxLength={254}
                autoComplete="email"
                value={values.email}
                onChange={(e) => set('email', e.target.value)}
              />
            </Field>
            <Field label={t('contact.subject')}>
              <input
                className={inputClass}
                required
                maxLength={200}
                value={values.subject}
                onChange={(e) => set('subject', e.target.value)}
              />
            </Field>
            <Field label={t('contact.category')}>
              <select
                className={inputClass}
                value={values.category}
                onChange={(e) => set('category', e.target.value as ContactCategory)}
              >
                {CONTACT_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {t(`contact.categories.${c}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              label={t('contact.message')}
              hint={t('contact.messageHint')}
              className="sm:col-span-2"
            >
              <textarea
                className={cn(inputClass, 'h-40 py-2')}
                required
                maxLength={5000}
                value={values.message}
                onChange={(e) => set('message', e.target.value)}
              />
            </Field>
            {/* The honeypot: off-screen and out of the tab order, so only bots fill it in. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label>
                {t('contact.website')}
                <input
                  tabIndex={-1}
                  autoComplete="off"
                  value={values.website}
                  onChange={(e) => set('website', e.target.value)}
                />
              </label>
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={send.isPending}>
                {send.isPending ? t('contact.sending') : t('contact.send')}
              </Button>
            </div>
          </form>
        </Card>
        <aside className="space-y-6">
          {/* Only what the operator has set: no office card without an address, no hours
              (nor "24/7") the operator has not given. */}
          {config?.company_address ? (
            <Card as="section" padding="lg" aria-labelledby="office">
              <h2 id="office" className="text-lg font-semibold text-slate-900">
                {t('contact.officeTitle')}
              </h2>
              <p className="mt-2 font-medium text-slate-900">{config.company_name}</p>
              <p className="mt-1 whitespace-pre-line text-slate-700">{config.company_address}</p>
            </Card>
          ) : null}
          {config?.support_always_open || config?.support_hours ? (
            <Card as="section" padding="lg" aria-labelledby="hours">
              <h2 id="hours" className="text-lg font-semibold text-slate-900">
                {t('contact.hoursTitle')}
              </h2>
              <p className="mt-2 whitespace-pre-line text-slate-700" data-testid="support-hours">
                {config.support_always_open ? t('contact.alwaysOpen') : config.support_hours}
              </p>
            </Card>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
