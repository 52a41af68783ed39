// The FAQ's questions, read from the translation files, and its search (spec §2.5).
export const FAQ_CATEGORIES = [
  'general',
  'account',
  'orders',
  'exchange',
  'security',
  'technical',
  'api',
  'refunds',
] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

export interface FaqItem {
  id: string;
  category: FaqCategory;
  question: string;
  answer: string;
}

/** Case-insensitive: every word of the query appears in the question or the answer. */
export function matches(item: FaqItem, query: string): boolean {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const text = `${item.question} ${item.answer}`.toLocaleLowerCase();
  return words.every((word) => text.includes(word));
}
