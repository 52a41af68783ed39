// `GET /api/status`: the state the server measured (spec/accounts-and-pages.md §3).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface StatusService {
  key: string;
  name: string;
  status: string;
  latency_ms: number | null;
  uptime: number | null;
}

export interface StatusNetwork {
  code: string;
  name: string;
  status: string;
  blockTime: number | null;
  congestion: string | null;
  confirmation_seconds: number | null;
}

export interface StatusIncident {
  id: string;
  date: number;
  title: string;
  description: string;
  status: string;
  updates: { time: number; status: string; message: string }[];
}

export interface StatusReport {
  status: string;
  checked_at: number;
  services: StatusService[];
  networks: StatusNetwork[];
  incidents: StatusIncident[];
}

export const statusQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/status'],
    queryFn: () => api.get<StatusReport>('/api/status'),
    refetchInterval: 60_000,
  });

export function useStatus() {
  return useQuery(statusQueryOptions());
}
