// Partners' API keys as a table, on the partner keys page (with each key's account) and on an
// account's page: each key's name, id, permission, use and whether it still works; and, for an
// operator or owner, Revoke on each key still working, with a required reason and its own
// Idempotency-Key. A revoked key stays revoked: the partner makes a new one.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { formatNumber, formatTime } from '@/lib/format';

import { useRevokeApiKey } from '../api/api-keys';
import type { PartnerApiKey } from '../types';
import { ActDialog, ReasonForm } from './act-form';

export function ApiKeysTable({
  keys,
  caption,
  showOwner,
  canRevoke,
}: {
  keys: PartnerApiKey[];
  caption: string;
  /** A column with each key's account (the partner keys page; an account's page has none). */
  showOwner: boolean;
  /** An operator or owner: Revoke on each key still working. */
  canRevoke: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const column = (key: ColumnKey) => t(`admin.user.keyColumns.${key}`);
  return (
    <Table>
      <TableCaption>{caption}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{column('name')}</TableHead>
          <TableHead>{column('id')}</TableHead>
          {showOwner ? <TableHead>{column('account')}</TableHead> : null}
          <TableHead>{column('permission')}</TableHead>
          <TableHead>{column('created')}</TableHead>
          <TableHead>{column('lastUsed')}</TableHead>
          <TableHead>{column('requests')}</TableHead>
          <TableHead>{column('status')}</TableHead>
          {canRevoke ? <TableHead>{column('actions')}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key.id}>
            <TableCell className="break-words">{key.name}</TableCell>
            <TableCell className="font-mono break-all">{key.id}</TableCell>
            {showOwner ? (
              <TableCell>
                <Link
                  to={paths.adminUser(key.user_id)}
                  className="break-all text-teal-800 underline underline-offset-2"
                >
                  {key.user_email}
                </Link>
              </TableCell>
            ) : null}
            <TableCell>{key.permission}</TableCell>
            <TableCell className="whitespace-nowrap">
              {formatTime(key.created_at, locale)}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {key.last_used_at ? formatTime(key.last_used_at, locale) : t('admin.user.never')}
            </TableCell>
            <TableCell className="tabular-nums">
              {formatNumber(key.request_count, locale)}
            </TableCell>
            <TableCell>
              {key.revoked_at ? (
                <Badge tone="neutral">
                  {t('admin.user.keyRevoked', { time: formatTime(key.revoked_at, locale) })}
                </Badge>
              ) : (
                <Badge tone="success">{t('admin.users.active')}</Badge>
              )}
            </TableCell>
            {canRevoke ? (
              <TableCell>{key.revoked_at ? null : <RevokeKeyAction apiKey={key} />}</TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

type ColumnKey =
  | 'name'
  | 'id'
  | 'account'
  | 'permission'
  | 'created'
  | 'lastUsed'
  | 'requests'
  | 'status'
  | 'actions';

function RevokeKeyAction({ apiKey }: { apiKey: PartnerApiKey }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.revokeKey.open')}
      context={apiKey.id}
      variant="destructive"
      size="sm"
      title={t('admin.revokeKey.title', { name: apiKey.name })}
      description={t('admin.revokeKey.description', { email: apiKey.user_email })}
      form={(close) => <RevokeKeyForm apiKey={apiKey} onClose={close} />}
    />
  );
}

function RevokeKeyForm({ apiKey, onClose }: { apiKey: PartnerApiKey; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useRevokeApiKey(apiKey.id, apiKey.user_id);
  return (
    <ReasonForm
      mutation={mutation}
      submit={t('admin.revokeKey.submit')}
      dismiss={t('admin.act.dismiss')}
      destructive
      failed={t('admin.revokeKey.failed')}
      onDone={() =>
        notify(t('admin.revokeKey.done'), {
          description: t('admin.revokeKey.doneText', { name: apiKey.name }),
          variant: 'success',
        })
      }
      onClose={onClose}
    />
  );
}
