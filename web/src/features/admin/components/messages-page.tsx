// Messages: what people wrote through the contact form, newest first, waiting for an answer by
// default (`?show=answered|all`, and `before=` for later pages). Each shows its sender, subject,
// category, time and text (plain text, its line breaks kept); it can be marked answered (once
// replied to by e-mail) or opened again, and linked to the order it is about (an unanswered
// message puts its order in the queue) or unlinked. The order page lists its own messages.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { nextMark, useMessageAct, useMessages } from '../api/contact-messages';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { queryOf } from '../lib/search-query';
import {
  CONTACT_CATEGORIES,
  type ContactMessage,
  MESSAGE_FILTERS,
  type MessageFilter,
} from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

function isFilter(value: string | null): value is MessageFilter {
  return MESSAGE_FILTERS.some((f) => f === value);
}

export function MessagesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('show');
  const filter: MessageFilter = isFilter(asked) ? asked : 'waiting';
  const before = params.get('before') ?? '';
  const messages = useMessages({ filter, before });
  const show = filter === 'waiting' ? undefined : filter;

  let body;
  if (messages.isPending) body = <Spinner label={t('common.loading')} />;
  else if (messages.isError) {
    body = <ConsoleError error={messages.error} what={t('admin.messages.error')} />;
  } else if (messages.data.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {filter === 'waiting' ? t('admin.messages.emptyWaiting') : t('admin.messages.empty')}
      </p>
    );
  } else {
    const next = nextMark(messages.data);
    body = (
      <div className="space-y-4" aria-busy={messages.isPlaceholderData}>
        <MessageList messages={messages.data} />
        {before || next ? (
          <nav aria-label={t('admin.messages.pages')} className="flex flex-wrap gap-3">
            {before ? (
              <Link to={queryOf({ show })} className={buttonVariants({ variant: 'outline' })}>
                {t('admin.messages.first')}
              </Link>
            ) : null}
            {next ? (
              <Link
                to={queryOf({ show, before: next })}
                className={buttonVariants({ variant: 'outline' })}
              >
                {t('admin.messages.next')}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.messages.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.messages.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.messages.intro')}</p>
      </div>
      <Field label={t('admin.messages.filter')} className="max-w-xs">
        <select
          className={inputClass}
          value={filter}
          onChange={(e) =>
            setParams(
              new URLSearchParams(e.target.value === 'waiting' ? {} : { show: e.target.value }),
            )
          }
        >
          {MESSAGE_FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`admin.messages.filters.${f}`)}
            </option>
          ))}
        </select>
      </Field>
      {body}
    </div>
  );
}

/** The messages, each with what may be done to it. */
export function MessageList({ messages }: { messages: ContactMessage[] }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t('admin.messages.list')} className="space-y-4">
      {messages.map((message) => (
        <li key={message.id}>
          <MessageItem message={message} />
        </li>
      ))}
    </ul>
  );
}

function MessageItem({ message }: { message: ContactMessage }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const category = CONTACT_CATEGORIES.find((c) => c === message.category);
  const headingId = `message-${message.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
            {message.subject}
          </h2>
          <p className="text-sm break-all text-slate-700">
            {t('admin.messages.from', { name: message.name, email: message.email })}
          </p>
        </div>
        {message.answered_at === null ? (
          <Badge tone="warning">{t('admin.messages.waiting')}</Badge>
        ) : (
          <Badge tone="success">
            {t('admin.messages.answered', { time: formatTime(message.answered_at, locale) })}
          </Badge>
        )}
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        <span>
          {t('admin.messages.category', {
            category: category ? t(`contact.categories.${category}`) : message.category,
          })}
        </span>
        <time dateTime={new Date(message.created_at * 1000).toISOString()}>
          {t('admin.messages.received', { time: formatTime(message.created_at, locale) })}
        </time>
        {message.user_id ? (
          <Link
            to={paths.adminUser(message.user_id)}
            className="text-teal-800 underline underline-offset-2"
          >
            {t('admin.messages.account')}
          </Link>
        ) : null}
      </p>
      {/* Plain text as it was typed: React escapes it; the line breaks are kept. */}
      <p className="rounded-lg bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap text-slate-900">
        {message.message}
      </p>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <AnsweredButton message={message} />
        {message.order_id ? (
          <LinkedOrder message={message} orderId={message.order_id} />
        ) : (
          <LinkOrderForm message={message} />
        )}
      </div>
    </article>
  );
}

/** "Mark answered" or "Open again". */
function AnsweredButton({ message }: { message: ContactMessage }) {
  const { t } = useTranslation();
  const act = useMessageAct(message.id);
  const key = useIdempotencyKey();
  // What the click asks for: answered (it waits), or waiting again.
  const answering = message.answered_at === null;
  const click = () => {
    // The promise rather than `mutate`'s callbacks: the message may leave the list (a filter
    // of waiting ones) before its answer is handled, and the toast must still show.
    act
      .mutateAsync({ kind: 'answered', answered: answering, idempotencyKey: key.current() })
      .then(() => {
        key.renew();
        notify(answering ? t('admin.messages.markedAnswered') : t('admin.messages.reopened'), {
          description: message.subject,
          variant: 'success',
        });
      })
      // Shown beside the button, from `act.error`.
      .catch(() => {});
  };
  return (
    <div className="space-y-2">
      <Button
        variant="outline"
        size="sm"
        aria-label={`${answering ? t('admin.messages.markAnswered') : t('admin.messages.reopen')} ${message.subject}`}
        disabled={act.isPending}
        aria-busy={act.isPending}
        onClick={click}
      >
        {answering ? t('admin.messages.markAnswered') : t('admin.messages.reopen')}
      </Button>
      {act.error ? (
        <ConsoleError error={act.error} what={t('admin.messages.answerFailed')} />
      ) : null}
    </div>
  );
}

/** The order the message is about, and a way to unlink it. */
function LinkedOrder({ message, orderId }: { message: ContactMessage; orderId: string }) {
  const { t } = useTranslation();
  const act = useMessageAct(message.id);
  const key = useIdempotencyKey();
  const unlink = () => {
    act
      .mutateAsync({ kind: 'order', orderId: null, idempotencyKey: key.current() })
      .then(() => {
        key.renew();
        notify(t('admin.messages.unlinked'), { description: message.subject, variant: 'success' });
      })
      .catch(() => {});
  };
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        {t('admin.messages.order')}
        <Link
          to={paths.adminOrder(orderId)}
          className="font-mono font-medium text-teal-800 underline underline-offset-2"
        >
          {orderId}
        </Link>
        <Button
          variant="outline"
          size="sm"
          aria-label={`${t('admin.messages.unlink')} ${message.subject}`}
          disabled={act.isPending}
          aria-busy={act.isPending}
          onClick={unlink}
        >
          {t('admin.messages.unlink')}
        </Button>
      </p>
      {act.error ? (
        <ConsoleError error={act.error} what={t('admin.messages.unlinkFailed')} />
      ) : null}
    </div>
  );
}

/** "Link to order": the order's id, checked by the server (its refusal is shown). */
function LinkOrderForm({ message }: { message: ContactMessage }) {
  const { t } = useTranslation();
  const act = useMessageAct(message.id);
  const key = useIdempotencyKey();
  const [orderId, setOrderId] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = orderId.trim();
    setMissing(!id);
    if (!id) return;
    act
      .mutateAsync({ kind: 'order', orderId: id, idempotencyKey: key.current() })
      .then(() => {
        key.renew();
        notify(t('admin.messages.linked', { id }), {
          description: message.subject,
          variant: 'success',
        });
      })
      .catch(() => {});
  };
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={`${t('admin.messages.linkTitle')} ${message.subject}`}
      className="space-y-2"
    >
      <div className="flex flex-wrap items-end gap-2">
        <Field
          label={t('admin.messages.linkTitle')}
          error={missing ? t('admin.messages.orderRequired') : null}
        >
          <input
            className={cn(inputClass, 'font-mono')}
            autoComplete="off"
            spellCheck={false}
            value={orderId}
            onChange={(e) => {
              setOrderId(e.target.value);
              // Another order is another act.
              key.renew();
            }}
          />
        </Field>
        <Button type="submit" size="sm" disabled={act.isPending} aria-busy={act.isPending}>
          {t('admin.messages.link')}
        </Button>
      </div>
      {act.error ? <ConsoleError error={act.error} what={t('admin.messages.linkFailed')} /> : null}
    </form>
  );
}
