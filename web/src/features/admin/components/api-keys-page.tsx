// Partner API keys: partners' keys to the API with their accounts, the most recently used first
// (the server lists 200), those still working by default (`?show=revoked|all`). An operator or
// owner revokes a key still working, with a required reason (api-keys-table.tsx).
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';

import { useApiKeys } from '../api/api-keys';
import { atLeast } from '../lib/roles';
import { API_KEY_FILTERS, type ApiKeyFilter, type ConsoleMe } from '../types';
import { ConsoleTitle } from './admin-layout';
import { ApiKeysTable } from './api-keys-table';
import { ConsoleError } from './console-error';

function isFilter(value: string | null): value is ApiKeyFilter {
  return API_KEY_FILTERS.some((f) => f === value);
}

export function ApiKeysPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('show');
  const filter: ApiKeyFilter = isFilter(asked) ? asked : 'active';
  const keys = useApiKeys(filter);

  let body;
  if (keys.isPending) body = <Spinner label={t('common.loading')} />;
  else if (keys.isError) {
    body = <ConsoleError error={keys.error} what={t('admin.apiKeys.error')} />;
  } else if (keys.data.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {t('admin.apiKeys.empty')}
      </p>
    );
  } else {
    body = (
      <ApiKeysTable
        keys={keys.data}
        caption={t('admin.apiKeys.results', { filter: t(`admin.apiKeys.filters.${filter}`) })}
        showOwner
        canRevoke={atLeast(me.role, 'operator')}
      />
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.apiKeys.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.apiKeys.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.apiKeys.intro')}</p>
      </div>
      <Field label={t('admin.apiKeys.filter')} className="max-w-xs">
        <select
          className={inputClass}
          value={filter}
          onChange={(e) =>
            setParams(
              new URLSearchParams(e.target.value === 'active' ? {} : { show: e.target.value }),
            )
          }
        >
          {API_KEY_FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`admin.apiKeys.filters.${f}`)}
            </option>
          ))}
        </select>
      </Field>
      {body}
    </div>
  );
}
