// Operators (owners only): who has a role in the back office, with a role to change or take away
// per person, and a form to give an account a role by its e-mail address. The server never
// leaves the exchange without an owner, and its refusals (no such account, an e-mail address
// not confirmed yet, the last owner) are shown in its own words.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Section } from '@/components/ui/section';
import { Spinner } from '@/components/ui/spinner';
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

import { useOperators, useSetOperator } from '../api/operators';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { isRole, ROLES } from '../lib/roles';
import type { ConsoleMe, Operator, Role } from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

export function OperatorsPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  if (me.role !== 'owner') {
    // Not offered in the navigation; the server would refuse the list anyway.
    return (
      <div className="space-y-6">
        <ConsoleTitle title={t('admin.operators.title')} />
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.operators.title')}</h1>
        <Alert tone="error">{t('admin.errors.roleRequired')}</Alert>
      </div>
    );
  }
  return <Operators me={me} />;
}

function Operators({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const operators = useOperators();

  let body;
  if (operators.isPending) body = <Spinner label={t('common.loading')} />;
  else if (operators.isError) {
    body = <ConsoleError error={operators.error} what={t('admin.operators.error')} />;
  } else {
    body = <OperatorsTable operators={operators.data} me={me} />;
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.operators.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.operators.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.operators.intro')}</p>
      </div>
      {body}
      <AddOperator />
    </div>
  );
}

function OperatorsTable({ operators, me }: { operators: Operator[]; me: ConsoleMe }) {
  const { t } = useTranslation();
  if (operators.length === 0) {
    return <p className="text-slate-700">{t('admin.operators.empty')}</p>;
  }
  return (
    <Table>
      <TableCaption>{t('admin.operators.results')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.operators.columns.email')}</TableHead>
          <TableHead>{t('admin.operators.columns.twoFactor')}</TableHead>
          <TableHead>{t('admin.operators.columns.role')}</TableHead>
          <TableHead>{t('admin.operators.columns.actions')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {operators.map((operator) => (
          <OperatorRow
            key={operator.id}
            operator={operator}
            you={!me.token && me.email.toLowerCase() === operator.email.toLowerCase()}
          />
        ))}
      </TableBody>
    </Table>
  );
}

function OperatorRow({ operator, you }: { operator: Operator; you: boolean }) {
  const { t } = useTranslation();
  const save = useSetOperator();
  const [role, setRole] = useState<Role>(operator.role);
  // The role as the server last said: when it changes (here or elsewhere), the select follows.
  const [known, setKnown] = useState<Role>(operator.role);
  if (known !== operator.role) {
    setKnown(operator.role);
    setRole(operator.role);
  }
  const [confirming, setConfirming] = useState(false);
  const email = operator.email;
  // The promise, not `mutate`'s callbacks: a removed operator's row is gone (unmounted) by the
  // time the list has been read again, and the toast must still show.
  const change = (next: Role | null) =>
    save
      // Each change is an act of its own: its own key (kept if the call is made again).
      .mutateAsync({ email, role: next, idempotencyKey: crypto.randomUUID() })
      .then(() => {
        setConfirming(false);
        if (next === null) {
          notify(t('admin.operators.removed'), {
            description: t('admin.operators.removedText', { email }),
            variant: 'success',
          });
        } else {
          notify(t('admin.operators.saved'), {
            description: t('admin.operators.savedText', { email, role: t(`admin.roles.${next}`) }),
            variant: 'success',
          });
        }
      })
      // Shown from `save.error`.
      .catch(() => {});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (role !== operator.role) void change(role);
  };
  return (
    <TableRow>
      <TableCell>
        <span className="break-all">{email}</span>
        {you ? <span className="ml-2 text-slate-600">{t('admin.operators.you')}</span> : null}
      </TableCell>
      <TableCell>
        {operator.two_factor ? (
          <Badge tone="success">{t('admin.operators.twoFactorOn')}</Badge>
        ) : (
          <Badge tone="warning">{t('admin.operators.twoFactorOff')}</Badge>
        )}
      </TableCell>
      <TableCell>
        <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
          <select
            aria-label={t('admin.operators.roleOf', { email })}
            className={`${inputClass} w-40`}
            value={role}
            onChange={(e) => {
              if (isRole(e.target.value)) setRole(e.target.value);
            }}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.roles.${r}`)}
              </option>
            ))}
          </select>
          <Button
            type="submit"
            variant="outline"
            size="sm"
            disabled={role === operator.role || save.isPending}
            aria-busy={save.isPending && !confirming}
            aria-label={`${t('admin.operators.save')} ${email}`}
          >
            {t('admin.operators.save')}
          </Button>
        </form>
        {save.error && !confirming ? (
          <div className="mt-2">
            <ConsoleError error={save.error} what={t('admin.operators.failed')} />
          </div>
        ) : null}
      </TableCell>
      <TableCell>
        <Button
          variant="outline"
          size="sm"
          aria-label={`${t('admin.operators.remove')} ${email}`}
          onClick={() => {
            save.reset();
            setConfirming(true);
          }}
        >
          {t('admin.operators.remove')}
        </Button>
        <ConfirmDialog
          open={confirming}
          title={t('admin.operators.removeTitle', { email })}
          description={t('admin.operators.removeText')}
          confirmLabel={t('admin.operators.removeConfirm')}
          cancelLabel={t('admin.operators.keep')}
          busy={save.isPending}
          onConfirm={() => void change(null)}
          onCancel={() => {
            save.reset();
            setConfirming(false);
          }}
        >
          {save.error ? (
            <ConsoleError error={save.error} what={t('admin.operators.failed')} />
          ) : null}
        </ConfirmDialog>
      </TableCell>
    </TableRow>
  );
}

function AddOperator() {
  const { t } = useTranslation();
  const add = useSetOperator();
  const key = useIdempotencyKey();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    setMissing(!address);
    if (!address) return;
    add.mutate(
      { email: address, role, idempotencyKey: key.current() },
      {
        onSuccess: (operator) => {
          key.renew();
          setEmail('');
          notify(t('admin.operators.added'), {
            description: t('admin.operators.savedText', {
              email: operator.email,
              role: t(`admin.roles.${operator.role}`),
            }),
            variant: 'success',
          });
        },
      },
    );
  };
  return (
    <Section title={t('admin.operators.addTitle')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <div className="grid gap-4 md:grid-cols-3">
          <Field
            label={t('admin.operators.email')}
            hint={t('admin.operators.emailHint')}
            error={missing ? t('admin.operators.emailRequired') : null}
            className="md:col-span-2"
          >
            <input
              type="email"
              className={inputClass}
              autoComplete="off"
              spellCheck={false}
              maxLength={254}
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                // Another address: another act.
                key.renew();
              }}
            />
          </Field>
          <Field label={t('admin.operators.role')}>
            <select
              className={inputClass}
              value={role}
              onChange={(e) => {
                if (isRole(e.target.value)) setRole(e.target.value);
                key.renew();
              }}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`admin.roles.${r}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {add.error ? (
          <ConsoleError error={add.error} what={t('admin.operators.addFailed')} />
        ) : null}
        <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
          {t('admin.operators.submit')}
        </Button>
      </form>
    </Section>
  );
}
