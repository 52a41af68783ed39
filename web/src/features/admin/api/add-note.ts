// `POST /api/admin/orders/{id}/notes` `{text}` → `{audit_id}`: a note on the order, kept in
// the audit log. Sent with the form's Idempotency-Key, so a retry never notes twice.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import { orderQueryOptions } from './get-order';

export interface NoteInput {
  text: string;
  idempotencyKey: string;
}

export const addNote = (id: string, { text, idempotencyKey }: NoteInput) =>
  consoleCall(() =>
    api.request<{ audit_id: number }>(`/api/admin/orders/${encodeURIComponent(id)}/notes`, {
      method: 'POST',
      body: JSON.stringify({ text }),
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );

export function useAddNote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoteInput) => addNote(id, input),
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderQueryOptions(id).queryKey }),
  });
}
