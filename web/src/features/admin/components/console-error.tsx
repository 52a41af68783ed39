// How a failed console call reads: no second factor → the way to turn it on; a role too low →
// the server's words; anything else → what failed, with the server's reason for a refusal.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

import { refusalOf } from '../lib/console-lock';

export function ConsoleError({ error, what }: { error: unknown; what: string }) {
  const { t } = useTranslation();
  const refusal = refusalOf(error);
  if (refusal === 'two_factor_required') return <TwoFactorNeeded />;
  if (refusal === 'role_required') {
    return (
      <Alert tone="error">
        {error instanceof Error && error.message ? error.message : t('admin.errors.roleRequired')}
      </Alert>
    );
  }
  // A refusal (4xx) says why; a server failure says only that it failed.
  const detail =
    error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : null;
  return (
    <Alert tone="error">
      <p>{what}</p>
      {detail && detail !== what ? <p className="mt-1">{detail}</p> : null}
    </Alert>
  );
}

/**
 * The console opens only for accounts with two-factor authentication: the page itself (an h1)
 * at the door, or a block of a page (an h2) when a call is refused for it.
 */
export function TwoFactorNeeded({ heading: Heading = 'h2' }: { heading?: 'h1' | 'h2' }) {
  const { t } = useTranslation();
  return (
    <Card as="section" tone="warning" aria-labelledby="two-factor-needed" className="max-w-xl">
      <Heading id="two-factor-needed" className="text-lg font-semibold text-slate-900">
        {t('admin.session.twoFactorTitle')}
      </Heading>
      <p className="mt-2 text-sm text-slate-800">{t('admin.session.twoFactorText')}</p>
      <Link to={paths.profile} className={buttonVariants({ className: 'mt-4' })}>
        {t('admin.session.twoFactorLink')}
      </Link>
    </Card>
  );
}
