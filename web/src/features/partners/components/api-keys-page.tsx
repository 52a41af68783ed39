// /api-management and /api: create API keys (the secret is shown once), see their use, set a
// webhook with its delivery log, revoke. Creating keys needs a verified e-mail.
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Section } from '@/components/ui/section';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { useSendVerificationEmail } from '@/lib/verification-email';
import { formatNumber, formatTime } from '@/lib/format';

import {
  type ApiKey,
  type CreatedKey,
  type Permission,
  useApiKeys,
  useCreateApiKey,
  useDeliveries,
  useRevokeApiKey,
  useSetWebhook,
} from '../api/partners';
import { signingExamples } from '@/lib/signing-examples';

function useFailureToast() {
  const { t } = useTranslation();
  return (error: Error) =>
    notify(t('account.apiKeys.failed'), { description: error.message, variant: 'destructive' });
}

export default function ApiKeysPage() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <PageMeta title={t('account.apiKeys.title')} noindex />
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-slate-900">{t('account.apiKeys.title')}</h1>
        <p className="text-slate-700">{t('account.apiKeys.intro')}</p>
        <p>
          <Link to={paths.apiDocs} className="font-medium text-teal-800 underline">
            {t('account.apiKeys.docsLink')}
          </Link>
        </p>
      </header>
      {keys.isPending ? <Spinner label={t('common.loading')} /> : null}
      {keys.error ? <Alert tone="error">{keys.error.message}</Alert> : null}
      {created ? <CreatedPanel created={created} onDone={() => setCreated(null)} /> : null}
      {keys.data ? (
        <>
          <CreateSection verified={keys.data.email_verified} onCreated={setCreated} />
          <KeyList keys={keys.data.keys} />
          <SigningSection keyId={keys.data.keys.find((k) => !k.revoked_at)?.id} />
        </>
      ) : null}
    </div>
  );
}

function CreateSection({
  verified,
  onCreated,
}: {
  verified: boolean;
  onCreated: (created: CreatedKey) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [permission, setPermission] = useState<Permission>('read');
  const create = useCreateApiKey();
  const sendVerification = useSendVerificationEmail();
  const failed = useFailureToast();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), permission },
      {
        onSuccess: (answer) => {
          setName('');
          onCreated(answer);
        },
        onError: failed,
      },
    );
  };
  return (
    <Section title={t('account.apiKeys.createTitle')}>
      {!verified ? (
        <Alert tone="warning" className="flex flex-wrap items-center gap-3">
          <p>{t('account.apiKeys.verifyFirst')}</p>
          <Button
            variant="outline"
            size="sm"
            disabled={sendVerification.isPending}
            onClick={() => sendVerification.mutate()}
          >
            {t('account.apiKeys.sendVerification')}
          </Button>
        </Alert>
      ) : null}
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <Field label={t('account.apiKeys.name')}>
          <input
            className={inputClass}
            maxLength={64}
            value={name}
            placeholder={t('account.apiKeys.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field label={t('account.apiKeys.permission')}>
          <select
            className={inputClass}
            value={permission}
            onChange={(e) => setPermission(e.target.value as Permission)}
          >
            <option value="read">{t('account.apiKeys.read')}</option>
            <option value="trade">{t('account.apiKeys.trade')}</option>
          </select>
        </Field>
        <Button type="submit" disabled={!verified || create.isPending || !name.trim()}>
          <KeyRound className="size-4" aria-hidden />
          {t('account.apiKeys.create')}
        </Button>
      </form>
      <p className="text-sm text-slate-600">
        {permission === 'read' ? t('account.apiKeys.readHint') : t('account.apiKeys.tradeHint')}
      </p>
    </Section>
  );
}

function CreatedPanel({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('account.apiKeys.apiKey'), created.key.id],
    [t('account.apiKeys.secret'), created.secret],
    [t('account.apiKeys.webhookSecret'), created.webhook_secret],
  ];
  return (
    <Card
      as="section"
      tone="highlight"
      aria-label={t('account.apiKeys.createdTitle')}
      className="space-y-4 sm:p-6"
    >
      <h2 className="text-lg font-semibold text-teal-900">{t('account.apiKeys.createdTitle')}</h2>
      <p role="alert" className="text-sm font-medium text-teal-900">
        {t('account.apiKeys.createdText')}
      </p>
      <dl className="space-y-3">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm font-medium text-slate-700">{label}</dt>
            <dd className="mt-1 flex items-center gap-2">
              <code className="flex-1 rounded bg-white px-2 py-1.5 font-mono text-sm break-all text-slate-900">
                {value}
              </code>
              <CopyButton value={value} what={label} />
            </dd>
          </div>
        ))}
      </dl>
      <Button onClick={onDone}>{t('account.apiKeys.savedIt')}</Button>
    </Card>
  );
}

function KeyList({ keys }: { keys: ApiKey[] }) {
  const { t } = useTranslation();
  return (
    <Section title={t('account.apiKeys.listTitle')}>
      {keys.length === 0 ? (
        <p className="text-slate-600">{t('account.apiKeys.none')}</p>
      ) : (
        <ul className="space-y-4">
          {keys.map((key) => (
            <KeyItem key={key.id} apiKey={key} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function KeyItem({ apiKey }: { apiKey: ApiKey }) {
  const { t, i18n } = useTranslation();
  const revoke = useRevokeApiKey();
  const failed = useFailureToast();
  const [confirming, setConfirming] = useState(false);
  const active = !apiKey.revoked_at;
  return (
    <Card as="li" padding="sm" aria-label={apiKey.name} className="space-y-3" data-testid="api-key">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">{apiKey.name}</h3>
        <Badge>
          {apiKey.permission === 'trade' ? t('account.apiKeys.trade') : t('account.apiKeys.read')}
        </Badge>
        <Badge tone={active ? 'info' : 'danger'}>
          {active ? t('account.apiKeys.active') : t('account.apiKeys.revoked')}
        </Badge>
      </div>
      <p className="flex items-center gap-2 font-mono text-sm break-all text-slate-800">
        {apiKey.id}
        <CopyButton value={apiKey.id} what={t('account.apiKeys.apiKey')} />
      </p>
      <dl className="grid gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-600">{t('account.apiKeys.created')}</dt>
          <dd className="text-slate-900">{formatTime(apiKey.created_at, i18n.language)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('account.apiKeys.lastUsed')}</dt>
          <dd className="text-slate-900">
            {apiKey.last_used_at
              ? formatTime(apiKey.last_used_at, i18n.language)
              : t('account.apiKeys.never')}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('account.apiKeys.requests')}</dt>
          <dd className="text-slate-900" data-testid="request-count">
            {formatNumber(apiKey.request_count, i18n.language)}
          </dd>
        </div>
      </dl>
      {active ? (
        <>
          <WebhookForm apiKey={apiKey} />
          <div className="flex flex-wrap gap-3">
            <Button variant="outline" onClick={() => setConfirming(true)}>
              {t('account.apiKeys.revoke')}
            </Button>
          </div>
          <ConfirmDialog
            open={confirming}
            title={t('account.apiKeys.revokeConfirmTitle', { name: apiKey.name })}
            description={t('account.apiKeys.revokeConfirmText')}
            confirmLabel={t('account.apiKeys.confirmRevoke')}
            cancelLabel={t('account.apiKeys.cancel')}
            busy={revoke.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={() =>
              revoke.mutate(apiKey.id, {
                onSuccess: () => {
                  setConfirming(false);
                  notify(t('account.apiKeys.revokedToast'));
                },
                onError: failed,
              })
            }
          />
        </>
      ) : null}
    </Card>
  );
}

function WebhookForm({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(apiKey.webhook_url ?? '');
  const [showLog, setShowLog] = useState(false);
  const save = useSetWebhook();
  const failed = useFailureToast();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: apiKey.id, url: url.trim() || null },
      { onSuccess: () => notify(t('account.apiKeys.webhookSaved')), onError: failed },
    );
  };
  return (
    <div className="space-y-3 rounded-lg bg-slate-50 p-3">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field
          label={t('account.apiKeys.webhookUrl')}
          hint={t('account.apiKeys.webhookHint')}
          className="flex-1"
        >
          <input
            className={inputClass}
            type="url"
            inputMode="url"
            maxLength={500}
            placeholder="https://example.com/ferry-webhook"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <Button type="submit" variant="outline" disabled={save.isPending}>
          {t('account.apiKeys.saveWebhook')}
        </Button>
      </form>
      {apiKey.webhook_url ? (
        <Button variant="ghost" size="sm" onClick={() => setShowLog((v) => !v)}>
          {showLog ? t('account.apiKeys.hideLog') : t('account.apiKeys.showLog')}
        </Button>
      ) : null}
      {showLog ? <DeliveryLog keyId={apiKey.id} /> : null}
    </div>
  );
}

function DeliveryLog({ keyId }: { keyId: string }) {
  const { t, i18n } = useTranslation();
  const deliveries = useDeliveries(keyId, true);
  if (deliveries.isPending) return <Spinner label={t('common.loading')} />;
  const list = deliveries.data?.deliveries ?? [];
  if (list.length === 0)
    return <p className="text-sm text-slate-600">{t('account.apiKeys.noDeliveries')}</p>;
  const result = (d: (typeof list)[number]) => {
    if (d.delivered_at) return t('account.apiKeys.delivered', { code: d.last_status_code ?? 200 });
    const error = d.last_error ?? '';
    if (d.next_attempt_at)
      return t('account.apiKeys.retrying', {
        error,
        time: formatTime(d.next_attempt_at, i18n.language),
      });
    return t('account.apiKeys.gaveUp', { error });
  };
  return (
    <table className="w-full text-left text-sm">
      <caption className="text-left font-medium text-slate-800">
        {t('account.apiKeys.logTitle')}
      </caption>
      <thead className="text-slate-600">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('account.apiKeys.time')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('account.apiKeys.order')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('account.apiKeys.attempts')}
          </th>
          <th scope="col" className="py-1 font-medium">
            {t('account.apiKeys.result')}
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((d) => (
          <tr key={d.id} className="border-t border-slate-200">
            <td className="py-1 pr-3">{formatTime(d.created_at, i18n.language)}</td>
            <td className="py-1 pr-3 font-mono">
              {d.order_id} · {d.order_status}
            </td>
            <td className="py-1 pr-3">{d.attempts}</td>
            <td className="py-1">{result(d)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SigningSection({ keyId }: { keyId?: string }) {
  const { t } = useTranslation();
  const snippets = signingExamples(window.location.origin, keyId);
  return (
    <Section title={t('account.apiKeys.signingTitle')}>
      <p className="text-sm text-slate-700">{t('account.apiKeys.signingText')}</p>
      {(['curl', 'python', 'javascript'] as const).map((language) => (
        <details key={language}>
          <summary className="cursor-pointer text-sm font-medium text-teal-800">
            {t(`account.apiKeys.languages.${language}`)}
          </summary>
          <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">
            <code>{snippets[language]}</code>
          </pre>
        </details>
      ))}
    </Section>
  );
}
