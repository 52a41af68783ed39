// /api-docs and /documentation: the API reference, drawn from /api/openapi.json — every
// operation with its method, path, summary, parameters, request fields and a curl example —
// and the partner API's signing, error codes, statuses and webhooks with runnable examples.
import { KeyRound, Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { Spinner } from '@/components/ui/spinner';
import { Card } from '@/components/ui/card';
import { signingExamples, webhookExamples } from '@/lib/signing-examples';
import { cn } from '@/lib/utils';

import {
  type OpenApiDocument,
  type Operation,
  type SchemaObject,
  useOpenApi,
} from '../api/get-openapi';

const GROUPS = ['partner', 'exchange', 'accounts', 'partners', 'site', 'affiliate'] as const;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Calls that need a session (they answer 401 without one). */
const SIGNED_IN =
  /^\/api\/(user|orders$|logout|account|email\/verification\/send|api-keys|affiliate$|affiliate\/payouts)/;
/** Partner API calls: signed with X-API-KEY and X-API-SIGN. */
const PARTNER = /^\/api\/v2\//;
const PARTNER_ERRORS = ['301', '311', '312', '320', '321', '429', '500'] as const;
const SNIPPET_LANGUAGES = ['curl', 'python', 'javascript'] as const;
/** What still differs from FixedFloat API v2 (docs/partner-compatibility.md has the details). */
const COMPAT_NOTICE = [
  'httpStatus',
  'rateLimit',
  'afftax',
  'replay',
  'qr',
  'values',
  'rates',
] as const;
const COMPAT_EXTRAS = ['usd', 'webhooks', 'lenient', 'rateFiles'] as const;

function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  const ref = schema?.$ref?.replace('#/components/schemas/', '');
  return ref ? doc.components?.schemas?.[ref] : schema;
}

function typeOf(schema: SchemaObject): string {
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
}

/** The request as a curl command, followed by the documented answer when there is one. */
function example(doc: OpenApiDocument, method: string, path: string, operation: Operation): string {
  const answer = operation.responses?.['200']?.content?.['application/json']?.example;
  const request = requestExample(doc, method, path, operation);
  return answer === undefined ? request : `${request}\n\n# →\n${JSON.stringify(answer, null, 2)}`;
}

function requestExample(
  doc: OpenApiDocument,
  method: string,
  path: string,
  operation: Operation,
): string {
  const body = resolve(doc, operation.requestBody?.content?.['application/json']?.schema);
  const sample = Object.fromEntries(
    Object.entries(body?.properties ?? {})
      .filter(([name]) => body?.required?.includes(name))
      .map(([name, field]) => [
        name,
        field.example ?? (typeOf(field).startsWith('string') ? '…' : 0),
      ]),
  );
  if (PARTNER.test(path)) {
    return [
      `BODY='${JSON.stringify(path.endsWith('/ccies') ? {} : sample)}'`,
      `SIGN=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.* //')`,
      `curl -X POST "${window.location.origin}${path}" \\`,
      "  -H 'Content-Type: application/json' \\",
      '  -H "X-API-KEY: $API_KEY" -H "X-API-SIGN: $SIGN" -d "$BODY"',
    ].join('\n');
  }
  const lines = [`curl -X ${method.toUpperCase()} "${window.location.origin}${path}"`];
  if (SIGNED_IN.test(path)) lines.push('  -H "Authorization: Bearer $TOKEN"');
  if (body) {
    lines.push("  -H 'Content-Type: application/json'");
    lines.push(`  -d '${JSON.stringify(sample)}'`);
  }
  return lines.join(' \\\n');
}

function OperationCard({
  doc,
  method,
  path,
  operation,
}: {
  doc: OpenApiDocument;
  method: string;
  path: string;
  operation: Operation;
}) {
  const { t } = useTranslation();
  const body = resolve(doc, operation.requestBody?.content?.['application/json']?.schema);
  const fields = Object.entries(body?.properties ?? {});
  return (
    <Card as="li" padding="sm">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span
          className={cn(
            'rounded px-2 py-0.5 text-xs font-bold uppercase',
            method === 'get' ? 'bg-teal-100 text-teal-900' : 'bg-indigo-100 text-indigo-900',
          )}
        >
          {method}
        </span>
        <span className="break-all text-slate-900">{path}</span>
        {SIGNED_IN.test(path) ? (
          <Lock aria-label={t('apiDocs.auth')} className="size-4 text-slate-600" />
        ) : null}
        {PARTNER.test(path) ? (
          <KeyRound aria-label={t('apiDocs.signed')} className="size-4 text-slate-600" />
        ) : null}
      </h3>
      {operation.summary ? <p className="mt-2 text-slate-700">{operation.summary}</p> : null}
      {operation.parameters?.length ? (
        <p className="mt-2 text-sm text-slate-700">
          {t('apiDocs.parameters')}:{' '}
          {operation.parameters.map((p) => (
            <code key={`${p.in}-${p.name}`} className="mr-2 rounded bg-slate-100 px-1">
              {p.name} ({p.in})
            </code>
          ))}
        </p>
      ) : null}
      {fields.length > 0 ? (
        <table className="mt-3 w-full text-left text-sm">
          <caption className="text-left font-medium text-slate-800">{t('apiDocs.request')}</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t('apiDocs.field')}
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t('apiDocs.type')}
              </th>
              <th scope="col" className="py-1 font-medium">
                {t('apiDocs.required')}
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map(([name, field]) => (
              <tr key={name} className="border-t border-slate-100">
                <td className="py-1 pr-3 font-mono">{name}</td>
                <td className="py-1 pr-3">{typeOf(field)}</td>
                <td className="py-1">
                  {body?.required?.includes(name) ? t('apiDocs.yes') : t('apiDocs.no')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-teal-800">
          {t('apiDocs.example')}
        </summary>
        <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">
          <code>{example(doc, method, path, operation)}</code>
        </pre>
      </details>
    </Card>
  );
}

export default function ApiDocsPage() {
  const { t } = useTranslation();
  const openapi = useOpenApi();
  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-12">
      <PageMeta title={t('apiDocs.title')} description={t('apiDocs.intro')} />
      <header className="space-y-3">
        <h1 className="text-4xl font-bold text-slate-900">{t('apiDocs.title')}</h1>
        <p className="text-slate-700">{t('apiDocs.intro')}</p>
        <p className="text-slate-700">{t('apiDocs.auth')}</p>
        <p>
          <a href="/api/openapi.json" className="font-medium text-teal-800 underline">
            {t('apiDocs.openapi')}
          </a>
        </p>
        <p className="text-xs text-slate-600">{t('apiDocs.englishNote')}</p>
      </header>
      <PartnerGuide />
      {openapi.isPending ? <Spinner label={t('apiDocs.loading')} /> : null}
      {openapi.error ? <p role="alert">{t('apiDocs.failed')}</p> : null}
      {openapi.data
        ? GROUPS.map((group) => {
            const doc = openapi.data;
            const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
              METHODS.flatMap((method) => {
                const operation = item[method];
                return operation?.tags?.includes(group) ? [{ path, method, operation }] : [];
              }),
            );
            if (operations.length === 0) return null;
            return (
              <section key={group} aria-labelledby={`api-${group}`}>
                <h2 id={`api-${group}`} className="text-2xl font-semibold text-slate-900">
                  {t(`apiDocs.groups.${group}`)}
                </h2>
                <ul className="mt-4 space-y-3">
                  {operations.map(({ path, method, operation }) => (
                    <OperationCard
                      key={`${method} ${path}`}
                      doc={doc}
                      method={method}
                      path={path}
                      operation={operation}
                    />
                  ))}
                </ul>
              </section>
            );
          })
        : null}
    </div>
  );
}

function Snippet({ label, code }: { label: string; code: string }) {
  return (
    <details>
      <summary className="cursor-pointer text-sm font-medium text-teal-800">{label}</summary>
      <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">
        <code>{code}</code>
      </pre>
    </details>
  );
}

function PartnerGuide() {
  const { t } = useTranslation();
  const signing = signingExamples(window.location.origin);
  const webhooks = webhookExamples();
  return (
    <section aria-labelledby="partner-api" className="space-y-4 rounded-2xl bg-slate-100 p-6">
      <h2 id="partner-api" className="text-xl font-semibold text-slate-900">
        {t('apiDocs.partnerTitle')}
      </h2>
      <p className="text-slate-700">{t('apiDocs.partnerText')}</p>
      <h3 className="font-semibold text-slate-900">{t('apiDocs.signingExamples')}</h3>
      {SNIPPET_LANGUAGES.map((language) => (
        <Snippet
          key={language}
          label={t(`apiDocs.languages.${language}`)}
          code={signing[language]}
        />
      ))}
      <h3 className="font-semibold text-slate-900">{t('apiDocs.errorsTitle')}</h3>
      <table className="w-full text-left text-sm">
        <tbody>
          {PARTNER_ERRORS.map((code) => (
            <tr key={code} className="border-t border-slate-200">
              <th scope="row" className="py-1 pr-3 font-mono font-medium">
                {code}
              </th>
              <td className="py-1">{t(`apiDocs.errors.${code}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 className="font-semibold text-slate-900">{t('apiDocs.statusesTitle')}</h3>
      <p className="text-sm text-slate-700">{t('apiDocs.statusesText')}</p>
      <h3 className="font-semibold text-slate-900">{t('apiDocs.webhooksTitle')}</h3>
      <p className="text-sm text-slate-700">{t('apiDocs.webhooksText')}</p>
      <h4 className="text-sm font-semibold text-slate-900">{t('apiDocs.verifyExamples')}</h4>
      <Snippet label={t('apiDocs.languages.python')} code={webhooks.python} />
      <Snippet label={t('apiDocs.languages.javascript')} code={webhooks.javascript} />
      <Compatibility />
    </section>
  );
}

function Compatibility() {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="fixedfloat-compatibility"
      className="space-y-2 text-sm text-slate-700"
    >
      <h3 id="fixedfloat-compatibility" className="text-base font-semibold text-slate-900">
        {t('apiDocs.compatTitle')}
      </h3>
      <p>{t('apiDocs.compatIntro')}</p>
      <h4 className="font-semibold text-slate-900">{t('apiDocs.compatNoticeTitle')}</h4>
      <ul className="list-disc space-y-1 pl-5">
        {COMPAT_NOTICE.map((item) => (
          <li key={item}>{t(`apiDocs.compatNotice.${item}`)}</li>
        ))}
      </ul>
      <h4 className="font-semibold text-slate-900">{t('apiDocs.compatExtrasTitle')}</h4>
      <ul className="list-disc space-y-1 pl-5">
        {COMPAT_EXTRAS.map((item) => (
          <li key={item}>{t(`apiDocs.compatExtras.${item}`)}</li>
        ))}
      </ul>
    </section>
  );
}
