import type { TFunction } from 'i18next';

/** The name of a coin's memo field, translated when it is one the catalogue uses. */
export function tagLabel(name: string | null | undefined, t: TFunction): string {
  if (name === 'Memo') return t('exchange.tagLabels.memo');
  if (name === 'Destination tag') return t('exchange.tagLabels.destinationTag');
  return name ?? t('exchange.memo');
}
