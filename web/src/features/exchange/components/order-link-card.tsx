// The order's own link, offered from the first second: it opens the order on any device, so it
// is shown in full with a copy button, and a guest may have it (with the status mails) e-mailed.
import { Link2, Mail } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { isFinalStatus } from '@/lib/order-status';

import { useOrderEmail } from '../api/order-email';
import type { Order } from '../types';
import { orderLink } from './order-sections';

export function OrderLinkCard({ order }: { order: Order }) {
  const { t } = useTranslation();
  const ids = useId();
  const link = `${window.location.origin}${orderLink(order)}`;
  return (
    <Card
      as="section"
      tone="highlight"
      padding="responsive"
      aria-labelledby={`${ids}-title`}
      className="space-y-3"
    >
      <h2 id={`${ids}-title`} className="flex items-center gap-2 font-semibold">
        <Link2 aria-hidden="true" className="size-5 text-teal-700" />
        {t('order.linkTitle')}
      </h2>
      <p className="text-sm text-slate-700">{t('order.linkText')}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          readOnly
          value={link}
          aria-label={t('order.linkTitle')}
          data-testid="order-link"
          onFocus={(e) => e.currentTarget.select()}
          className="h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm text-slate-900 sm:flex-1"
        />
        <CopyButton
          value={link}
          what={t('order.linkTitle')}
          text={t('order.copyLink')}
          successMessage={t('order.linkCopied')}
        />
      </div>
      {/* A finished order sends no more mails. */}
      {isFinalStatus(order.status) ? null : <EmailLink order={order} />}
    </Card>
  );
}

/** Optional: the order's mails (and its link) to an address; never required. */
function EmailLink({ order }: { order: Order }) {
  const { t } = useTranslation();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useOrderEmail(order);
  if (sentTo) {
    return (
      <p role="status" className="text-sm text-slate-800">
        {t('order.emailSaved', { email: sentTo })}
      </p>
    );
  }
  if (!open) {
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Mail aria-hidden="true" className="size-4" />
        {t('order.emailOffer')}
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    send.mutate(address, { onSuccess: () => setSentTo(address) });
  };
  const error = send.error ? send.error.message || t('order.emailFailed') : null;
  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <label htmlFor={`${ids}-email`} className="block text-sm font-medium">
        {t('order.emailLabel')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={`${ids}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (send.error) send.reset();
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${ids}-email-hint${error ? ` ${ids}-email-error` : ''}`}
          className="sm:flex-1"
        />
        <Button type="submit" disabled={send.isPending || !email.trim()}>
          {t('order.emailSend')}
        </Button>
      </div>
      <p id={`${ids}-email-hint`} className="text-xs text-slate-600">
        {t('order.emailHint')}
      </p>
      {error ? (
        <Alert tone="error" id={`${ids}-email-error`}>
          {error}
        </Alert>
      ) : null}
    </form>
  );
}
