// `POST /api/contact` (spec/accounts-and-pages.md §3, §7).
import { api } from '@/lib/api-client';

export const CONTACT_CATEGORIES = ['general', 'technical', 'account', 'billing', 'other'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  category: ContactCategory;
  message: string;
  /** The honeypot: people leave it empty. */
  website: string;
}

export function sendContactMessage(message: ContactMessage): Promise<{ message?: string }> {
  return api.post('/api/contact', message);
}
