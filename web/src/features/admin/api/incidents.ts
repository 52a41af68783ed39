// `GET /api/admin/incidents`: the incidents of the status page, newest first, each with its
// updates (oldest first); `POST /api/admin/incidents` `{title, description}` opens one
// (investigating) and `POST …/{id}/updates` `{status, message}` posts an update to it (resolved
// closes it). Each act is sent with its form's Idempotency-Key; once done, the list is read
// again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { Incident, IncidentStatus } from '../types';
import { consoleAct } from './console-act';

const INCIDENTS = '/api/admin/incidents';

export const getIncidents = () => consoleCall(() => api.get<Incident[]>(INCIDENTS));

export const incidentsQueryOptions = () =>
  queryOptions({
    queryKey: [INCIDENTS],
    queryFn: getIncidents,
    meta: { private: true },
    staleTime: 0,
  });

export const useIncidents = () => useQuery(incidentsQueryOptions());

export interface OpenIncidentInput {
  title: string;
  description: string;
  idempotencyKey: string;
}

export const openIncident = ({ idempotencyKey, ...body }: OpenIncidentInput) =>
  consoleAct<{ id: string; audit_id: number }>(INCIDENTS, 'POST', body, idempotencyKey);

export interface IncidentUpdateInput {
  status: IncidentStatus;
  message: string;
  idempotencyKey: string;
}

export const postIncidentUpdate = (id: string, { idempotencyKey, ...body }: IncidentUpdateInput) =>
  consoleAct<{ id: string; status: IncidentStatus; audit_id: number }>(
    `${INCIDENTS}/${encodeURIComponent(id)}/updates`,
    'POST',
    body,
    idempotencyKey,
  );

export function useOpenIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openIncident,
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incidentsQueryOptions().queryKey }),
  });
}

export function usePostIncidentUpdate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentUpdateInput) => postIncidentUpdate(id, input),
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incidentsQueryOptions().queryKey }),
  });
}
