// `GET /api/admin/contact-messages?answered=&order_id=&before=&limit=`: the contact form's
// messages, newest first, a page at a time (`before` = `created_at:id` of the last message of
// the previous page); `POST …/{id}/answered` `{answered}` marks one answered or opens it again;
// `PUT …/{id}/order` `{order_id}` links it to the order it is about (`null` unlinks it; a 404
// `{error}` when there is no such order). Each act is sent with its own Idempotency-Key. Once
// done, the lists and the queue (where a waiting message puts its order) are read again.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { ContactMessage, MessageFilter } from '../types';
import { consoleAct } from './console-act';
import { queueQueryOptions } from './get-queue';

export const MESSAGES_PAGE_SIZE = 50;

export interface MessageSearch {
  filter: MessageFilter;
  /** Only the messages linked to this order; '' for all. */
  orderId?: string;
  /** `created_at:id` of the previous page's last message, or '' for the first page. */
  before?: string;
}

const MESSAGES = '/api/admin/contact-messages';

export function getMessages(search: MessageSearch): Promise<ContactMessage[]> {
  const params = new URLSearchParams();
  if (search.filter !== 'all') params.set('answered', String(search.filter === 'answered'));
  if (search.orderId) params.set('order_id', search.orderId);
  if (search.before) params.set('before', search.before);
  params.set('limit', String(MESSAGES_PAGE_SIZE));
  return consoleCall(() => api.get<ContactMessage[]>(`${MESSAGES}?${params.toString()}`));
}

export const messagesQueryOptions = (search: MessageSearch) =>
  queryOptions({
    queryKey: [MESSAGES, search],
    queryFn: () => getMessages(search),
    meta: { private: true },
    staleTime: 0,
  });

export const useMessages = (search: MessageSearch) =>
  // The last page stays while the next one loads.
  useQuery({ ...messagesQueryOptions(search), placeholderData: keepPreviousData });

/** What `before` takes for the page after this one; null when this one is the last. */
export const nextMark = (page: ContactMessage[]) => {
  const last = page.at(-1);
  return last && page.length >= MESSAGES_PAGE_SIZE ? `${last.created_at}:${last.id}` : null;
};

export type MessageAct =
  | { kind: 'answered'; answered: boolean; idempotencyKey: string }
  | { kind: 'order'; orderId: string | null; idempotencyKey: string };

const messagePath = (id: string, act: 'answered' | 'order') =>
  `${MESSAGES}/${encodeURIComponent(id)}/${act}`;

export const actOnMessage = (id: string, act: MessageAct) =>
  act.kind === 'answered'
    ? consoleAct<ContactMessage>(
        messagePath(id, 'answered'),
        'POST',
        { answered: act.answered },
        act.idempotencyKey,
      )
    : consoleAct<ContactMessage>(
        messagePath(id, 'order'),
        'PUT',
        { order_id: act.orderId },
        act.idempotencyKey,
      );

/** A mutation of the message `id` that, once done, refreshes the lists and the queue. */
export function useMessageAct(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (act: MessageAct) => actOnMessage(id, act),
    meta: { private: true },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [MESSAGES] }),
        queryClient.invalidateQueries({ queryKey: [queueQueryOptions().queryKey[0]] }),
      ]),
  });
}
