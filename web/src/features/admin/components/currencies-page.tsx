// Currencies: every currency of the catalogue, in its order, with what customers get now (send,
// receive), the provider's maintenance, and the operator's override (the switches, a maintenance
// message, the least and most a customer may send, its last change); a filter by code, name or
// network, kept in the address (`?q=`). An operator or owner edits a currency's override in its
// dialog, which sends the whole override (the server replaces it), once per dialog's
// Idempotency-Key; the amounts are checked here first, and the server's refusal is shown.
import type { TFunction } from 'i18next';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
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
import { formatAmount, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useCurrencies, useSetCurrencyOverride } from '../api/currencies';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { compareAmounts, isPositiveAmount } from '../lib/amounts';
import { atLeast } from '../lib/roles';
import { queryOf } from '../lib/search-query';
import type { ConsoleCurrency, ConsoleMe, CurrencySwitch } from '../types';
import { ActButtons, ActDialog, reasonError, ReasonField } from './act-form';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

/** The longest maintenance message the server takes (in characters, one line). */
export const MAINTENANCE_LIMIT = 200;

/** An operator's switch as its select offers it. */
type Choice = 'provider' | 'on' | 'off';

const CHOICES: readonly Choice[] = ['provider', 'on', 'off'];

const choiceOf = (value: CurrencySwitch): Choice =>
  value === null ? 'provider' : value ? 'on' : 'off';

const switchOf = (choice: Choice): CurrencySwitch =>
  choice === 'provider' ? null : choice === 'on';

function isChoice(value: string): value is Choice {
  return CHOICES.some((c) => c === value);
}

/** Whether the currency answers to the filter (its code, coin, name or network). */
function matches(currency: ConsoleCurrency, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  if (!wanted) return true;
  return [currency.code, currency.coin, currency.name, currency.network, currency.network_name]
    .map((text) => text.toLowerCase())
    .some((text) => text.includes(wanted));
}

export function CurrenciesPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filter = params.get('q') ?? '';
  const currencies = useCurrencies();

  let body;
  if (currencies.isPending) body = <Spinner label={t('common.loading')} />;
  else if (currencies.isError) {
    body = <ConsoleError error={currencies.error} what={t('admin.currencies.error')} />;
  } else {
    const shown = currencies.data.filter((currency) => matches(currency, filter));
    body =
      shown.length === 0 ? (
        <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
          {currencies.data.length === 0
            ? t('admin.currencies.emptyAll')
            : t('admin.currencies.empty', { filter: filter.trim() })}
        </p>
      ) : (
        <CurrenciesTable currencies={shown} canEdit={atLeast(me.role, 'operator')} />
      );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.currencies.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.currencies.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.currencies.intro')}</p>
      </div>
      <Field
        label={t('admin.currencies.filter')}
        hint={t('admin.currencies.filterHint')}
        className="max-w-md"
      >
        <input
          type="search"
          className={inputClass}
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          value={filter}
          // The list follows as one types; the address keeps the filter (not every letter in the
          // history).
          onChange={(e) =>
            setParams(new URLSearchParams(queryOf({ q: e.target.value })), { replace: true })
          }
        />
      </Field>
      {body}
    </div>
  );
}

function CurrenciesTable({
  currencies,
  canEdit,
}: {
  currencies: ConsoleCurrency[];
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const column = (key: ColumnKey) => t(`admin.currencies.columns.${key}`);
  const none = <span className="text-slate-600">{t('admin.currencies.none')}</span>;
  const limit = (amount: string | null, code: string) =>
    amount === null ? (
      <span className="text-slate-600">{t('admin.currencies.providerLimit')}</span>
    ) : (
      `${formatAmount(amount, locale)} ${code}`
    );
  return (
    <Table>
      <TableCaption>{t('admin.currencies.results')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{column('currency')}</TableHead>
          <TableHead>{column('network')}</TableHead>
          <TableHead>{column('customers')}</TableHead>
          <TableHead>{column('provider')}</TableHead>
          <TableHead>{column('switches')}</TableHead>
          <TableHead>{column('maintenance')}</TableHead>
          <TableHead>{column('min')}</TableHead>
          <TableHead>{column('max')}</TableHead>
          <TableHead>{column('updated')}</TableHead>
          {canEdit ? <TableHead>{column('actions')}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {currencies.map((currency) => {
          const { override, provider } = currency;
          return (
            <TableRow key={currency.code}>
              <TableCell>
                <span className="block font-mono font-semibold text-slate-900">
                  {currency.code}
                </span>
                <span className="block text-xs text-slate-600">{currency.name}</span>
              </TableCell>
              <TableCell>
                <span className="block">{currency.network_name}</span>
                <span className="block font-mono text-xs text-slate-600">{currency.network}</span>
              </TableCell>
              <TableCell>
                <Stack>
                  <Badge tone={currency.send ? 'success' : 'danger'}>
                    {currency.send ? t('admin.currencies.sendOn') : t('admin.currencies.sendOff')}
                  </Badge>
                  <Badge tone={currency.recv ? 'success' : 'danger'}>
                    {currency.recv ? t('admin.currencies.recvOn') : t('admin.currencies.recvOff')}
                  </Badge>
                </Stack>
              </TableCell>
              <TableCell>
                {provider.deposit_maintenance || provider.payout_maintenance ? (
                  <Stack>
                    {provider.deposit_maintenance ? (
                      <Badge tone="warning">{t('admin.currencies.depositMaintenance')}</Badge>
                    ) : null}
                    {provider.payout_maintenance ? (
                      <Badge tone="warning">{t('admin.currencies.payoutMaintenance')}</Badge>
                    ) : null}
                  </Stack>
                ) : (
                  <span className="whitespace-nowrap">{t('admin.currencies.noMaintenance')}</span>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <span className="block">
                  {t('admin.currencies.switchSend', {
                    choice: t(`admin.currencies.choices.${choiceOf(override.send)}`),
                  })}
                </span>
                <span className="block">
                  {t('admin.currencies.switchRecv', {
                    choice: t(`admin.currencies.choices.${choiceOf(override.recv)}`),
                  })}
                </span>
              </TableCell>
              <TableCell className="max-w-xs break-words">{override.maintenance ?? none}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {limit(override.min, currency.coin)}
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {limit(override.max, currency.coin)}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {override.updated_at ? formatTime(override.updated_at, locale) : none}
              </TableCell>
              {canEdit ? (
                <TableCell>
                  <EditCurrencyAction currency={currency} />
                </TableCell>
              ) : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

type ColumnKey =
  | 'currency'
  | 'network'
  | 'customers'
  | 'provider'
  | 'switches'
  | 'maintenance'
  | 'min'
  | 'max'
  | 'updated'
  | 'actions';

function Stack({ children }: { children: ReactNode }) {
  return <span className="flex flex-col items-start gap-1">{children}</span>;
}

function EditCurrencyAction({ currency }: { currency: ConsoleCurrency }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.editCurrency.open')}
      context={currency.code}
      size="sm"
      title={t('admin.editCurrency.title', { name: currency.name, code: currency.code })}
      description={t('admin.editCurrency.description')}
      form={(close) => <EditCurrencyForm currency={currency} onClose={close} />}
    />
  );
}

interface Values {
  send: Choice;
  recv: Choice;
  maintenance: string;
  min: string;
  max: string;
  reason: string;
}

type Errors = Partial<Record<'maintenance' | 'min' | 'max' | 'reason', string>>;

/** What is wrong with the form's values (trimmed), field by field. */
function errorsOf(t: TFunction, values: Values): Errors {
  const amount = (text: string) =>
    text && !isPositiveAmount(text) ? t('admin.editCurrency.amountInvalid') : undefined;
  const min = amount(values.min);
  const max =
    amount(values.max) ??
    (values.min && values.max && !min && compareAmounts(values.min, values.max) > 0
      ? t('admin.editCurrency.maxBelowMin')
      : undefined);
  return {
    maintenance:
      [...values.maintenance].length > MAINTENANCE_LIMIT
        ? t('admin.editCurrency.maintenanceTooLong', { max: MAINTENANCE_LIMIT })
        : undefined,
    min,
    max,
    // The reason is optional here, but no longer than any other.
    reason: values.reason ? reasonError(t, values.reason) : undefined,
  };
}

function EditCurrencyForm({
  currency,
  onClose,
}: {
  currency: ConsoleCurrency;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSetCurrencyOverride(currency.code);
  const key = useIdempotencyKey();
  const { override } = currency;
  const [values, setValues] = useState<Values>({
    send: choiceOf(override.send),
    recv: choiceOf(override.recv),
    maintenance: override.maintenance ?? '',
    min: override.min ?? '',
    max: override.max ?? '',
    reason: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const set =
    <Key extends keyof Values>(field: Key) =>
    (value: Values[Key]) =>
      setValues((v) => ({ ...v, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed: Values = {
      ...values,
      maintenance: values.maintenance.trim(),
      min: values.min.trim(),
      max: values.max.trim(),
      reason: values.reason.trim(),
    };
    const found = errorsOf(t, trimmed);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    // The whole override: what is empty is null.
    save
      .mutateAsync({
        send: switchOf(trimmed.send),
        recv: switchOf(trimmed.recv),
        maintenance: trimmed.maintenance || null,
        min: trimmed.min || null,
        max: trimmed.max || null,
        ...(trimmed.reason ? { reason: trimmed.reason } : {}),
        idempotencyKey: key.current(),
      })
      .then(() => {
        notify(t('admin.editCurrency.done'), {
          description: t('admin.editCurrency.doneText', { code: currency.code }),
          variant: 'success',
        });
        onClose();
      })
      // Shown in the form, from `save.error`.
      .catch(() => {});
  };
  const code = currency.coin;
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <SwitchField
          label={t('admin.editCurrency.send', { code })}
          value={values.send}
          onChange={set('send')}
          initialFocus
        />
        <SwitchField
          label={t('admin.editCurrency.recv', { code })}
          value={values.recv}
          onChange={set('recv')}
        />
      </div>
      <Field
        label={t('admin.editCurrency.maintenance')}
        hint={t('admin.editCurrency.maintenanceHint', { max: MAINTENANCE_LIMIT })}
        error={errors.maintenance}
      >
        <input
          className={inputClass}
          autoComplete="off"
          maxLength={MAINTENANCE_LIMIT}
          value={values.maintenance}
          onChange={(e) => set('maintenance')(e.target.value)}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t('admin.editCurrency.min', { code })}
          hint={t('admin.editCurrency.minHint')}
          error={errors.min}
        >
          <input
            className={cn(inputClass, 'font-mono')}
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            value={values.min}
            onChange={(e) => set('min')(e.target.value)}
          />
        </Field>
        <Field
          label={t('admin.editCurrency.max', { code })}
          hint={t('admin.editCurrency.maxHint')}
          error={errors.max}
        >
          <input
            className={cn(inputClass, 'font-mono')}
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            value={values.max}
            onChange={(e) => set('max')(e.target.value)}
          />
        </Field>
      </div>
      <ReasonField
        label={t('admin.editCurrency.reason')}
        hint={t('admin.act.reasonHint')}
        error={errors.reason}
        value={values.reason}
        onChange={set('reason')}
      />
      {save.error ? (
        <ConsoleError error={save.error} what={t('admin.editCurrency.failed')} />
      ) : null}
      <ActButtons
        dismiss={t('admin.act.dismiss')}
        submit={t('admin.editCurrency.submit')}
        pending={save.isPending}
        onClose={onClose}
      />
    </form>
  );
}

/** Follow the provider, on, or off. */
function SwitchField({
  label,
  value,
  onChange,
  initialFocus = false,
}: {
  label: string;
  value: Choice;
  onChange: (value: Choice) => void;
  initialFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field label={label}>
      <select
        className={inputClass}
        data-autofocus={initialFocus || undefined}
        value={value}
        onChange={(e) => {
          if (isChoice(e.target.value)) onChange(e.target.value);
        }}
      >
        {CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(`admin.currencies.choices.${choice}`)}
          </option>
        ))}
      </select>
    </Field>
  );
}
