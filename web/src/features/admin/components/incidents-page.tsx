// Incidents: what the status page tells customers about trouble, newest first, each with its
// status, when it was opened and last updated, its description and its updates (newest first,
// as the status page shows them).
// An operator or owner opens an incident (it starts as investigating) and posts updates to one
// not resolved yet (a status and a message; resolved closes it), each form with its own
// Idempotency-Key.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Section } from '@/components/ui/section';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useIncidents, useOpenIncident, usePostIncidentUpdate } from '../api/incidents';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { atLeast } from '../lib/roles';
import { type ConsoleMe, type Incident, INCIDENT_STATUSES, type IncidentStatus } from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

/** The longest title the server takes (in characters). */
export const TITLE_LIMIT = 200;
/** The longest description or update message the form takes (in characters). */
export const MESSAGE_LIMIT = 2000;

const STATUS_TONES: Record<IncidentStatus, BadgeTone> = {
  investigating: 'danger',
  identified: 'warning',
  monitoring: 'info',
  resolved: 'success',
};

function isIncidentStatus(status: string): status is IncidentStatus {
  return INCIDENT_STATUSES.some((s) => s === status);
}

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return isIncidentStatus(status) ? (
    <Badge tone={STATUS_TONES[status]}>{t(`admin.incidents.statuses.${status}`)}</Badge>
  ) : (
    <Badge tone="neutral">{status}</Badge>
  );
}

export function IncidentsPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const incidents = useIncidents();
  const canAct = atLeast(me.role, 'operator');

  let body;
  if (incidents.isPending) body = <Spinner label={t('common.loading')} />;
  else if (incidents.isError) {
    body = <ConsoleError error={incidents.error} what={t('admin.incidents.error')} />;
  } else if (incidents.data.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {t('admin.incidents.empty')}
      </p>
    );
  } else {
    body = (
      <ul aria-label={t('admin.incidents.list')} className="space-y-4">
        {incidents.data.map((incident) => (
          <li key={incident.id}>
            <IncidentItem incident={incident} canAct={canAct} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.incidents.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.incidents.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.incidents.intro')}</p>
      </div>
      {canAct ? <OpenIncidentForm /> : null}
      {body}
    </div>
  );
}

function IncidentItem({ incident, canAct }: { incident: Incident; canAct: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const headingId = `incident-${incident.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
          {incident.title}
        </h2>
        <StatusBadge status={incident.status} />
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        <time dateTime={new Date(incident.created_at * 1000).toISOString()}>
          {t('admin.incidents.opened', { time: formatTime(incident.created_at, locale) })}
        </time>
        <time dateTime={new Date(incident.updated_at * 1000).toISOString()}>
          {t('admin.incidents.lastUpdate', { time: formatTime(incident.updated_at, locale) })}
        </time>
      </p>
      {/* Plain text as it was typed: React escapes it; the line breaks are kept. */}
      {incident.description ? (
        <p className="text-sm break-words whitespace-pre-wrap text-slate-900">
          {incident.description}
        </p>
      ) : null}
      {incident.updates.length > 0 ? (
        <>
          <h3 className="text-base font-semibold text-slate-900">{t('admin.incidents.updates')}</h3>
          <ol
            aria-label={t('admin.incidents.updatesOf', { title: incident.title })}
            className="space-y-2"
          >
            {incident.updates.map((update, index) => (
              <li
                key={`${update.created_at}-${index}`}
                className="rounded-lg bg-slate-50 p-3 text-sm"
              >
                <p className="flex flex-wrap items-center gap-2 text-slate-600">
                  <StatusBadge status={update.status} />
                  <time dateTime={new Date(update.created_at * 1000).toISOString()}>
                    {formatTime(update.created_at, locale)}
                  </time>
                </p>
                {update.message ? (
                  <p className="mt-1 break-words whitespace-pre-wrap text-slate-900">
                    {update.message}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {canAct && incident.status !== 'resolved' ? <UpdateForm incident={incident} /> : null}
    </article>
  );
}

function OpenIncidentForm() {
  const { t } = useTranslation();
  const open = useOpenIncident();
  const key = useIdempotencyKey();
  const [values, setValues] = useState({ title: '', description: '' });
  const [errors, setErrors] = useState<{ title?: string; description?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const title = values.title.trim();
    const description = values.description.trim();
    const found = {
      title: title ? undefined : t('admin.incidents.titleRequired'),
      description: description ? undefined : t('admin.incidents.descriptionRequired'),
    };
    setErrors(found);
    if (found.title || found.description) return;
    open.mutate(
      { title, description, idempotencyKey: key.current() },
      {
        onSuccess: () => {
          key.renew();
          setValues({ title: '', description: '' });
          notify(t('admin.incidents.openDone'), { description: title, variant: 'success' });
        },
      },
    );
  };
  return (
    <Section title={t('admin.incidents.openTitle')}>
      <p className="text-sm text-slate-700">{t('admin.incidents.openText')}</p>
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field label={t('admin.incidents.titleLabel')} error={errors.title}>
          <input
            className={inputClass}
            autoComplete="off"
            maxLength={TITLE_LIMIT}
            value={values.title}
            onChange={(e) => {
              setValues((v) => ({ ...v, title: e.target.value }));
              // Another incident: another act.
              key.renew();
            }}
          />
        </Field>
        <Field
          label={t('admin.incidents.description')}
          hint={t('admin.incidents.descriptionHint')}
          error={errors.description}
        >
          <textarea
            className={cn(inputClass, 'h-24 py-2')}
            maxLength={MESSAGE_LIMIT}
            value={values.description}
            onChange={(e) => {
              setValues((v) => ({ ...v, description: e.target.value }));
              key.renew();
            }}
          />
        </Field>
        {open.error ? (
          <ConsoleError error={open.error} what={t('admin.incidents.openFailed')} />
        ) : null}
        <Button type="submit" disabled={open.isPending} aria-busy={open.isPending}>
          {t('admin.incidents.openSubmit')}
        </Button>
      </form>
    </Section>
  );
}

function UpdateForm({ incident }: { incident: Incident }) {
  const { t } = useTranslation();
  const post = usePostIncidentUpdate(incident.id);
  const key = useIdempotencyKey();
  const [status, setStatus] = useState<IncidentStatus>(
    isIncidentStatus(incident.status) ? incident.status : 'investigating',
  );
  const [message, setMessage] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    setMissing(!text);
    if (!text) return;
    // The promise rather than `mutate`'s callbacks: an update that resolves the incident takes
    // this form away before its answer is handled, and the toast must still show.
    post
      .mutateAsync({ status, message: text, idempotencyKey: key.current() })
      .then(() => {
        key.renew();
        setMessage('');
        notify(t('admin.incidents.posted'), {
          description: t('admin.incidents.postedText', {
            title: incident.title,
            status: t(`admin.incidents.statuses.${status}`),
          }),
          variant: 'success',
        });
      })
      // Shown in the form, from `post.error`.
      .catch(() => {});
  };
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={t('admin.incidents.updateTitle', { title: incident.title })}
      className="space-y-3 border-t border-slate-100 pt-3"
    >
      <h3 className="text-base font-semibold text-slate-900">{t('admin.incidents.postUpdate')}</h3>
      <Field label={t('admin.incidents.status')} className="max-w-xs">
        <select
          className={inputClass}
          value={status}
          onChange={(e) => {
            if (isIncidentStatus(e.target.value)) setStatus(e.target.value);
            key.renew();
          }}
        >
          {INCIDENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`admin.incidents.statuses.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label={t('admin.incidents.message')}
        hint={t('admin.incidents.messageHint')}
        error={missing ? t('admin.incidents.messageRequired') : null}
      >
        <textarea
          className={cn(inputClass, 'h-20 py-2')}
          maxLength={MESSAGE_LIMIT}
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            key.renew();
          }}
        />
      </Field>
      {post.error ? (
        <ConsoleError error={post.error} what={t('admin.incidents.postFailed')} />
      ) : null}
      <Button type="submit" size="sm" disabled={post.isPending} aria-busy={post.isPending}>
        {t('admin.incidents.postSubmit')}
      </Button>
    </form>
  );
}
