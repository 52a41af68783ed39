// `GET /api/admin/operators`: who has a role in the back office; `PUT /api/admin/operators`
// `{email, role}`: an owner gives an account (by its e-mail address) a role, changes it, or
// takes it away (`role: null`). The server never leaves the exchange without an owner, and
// says why it refuses (no such account, e-mail not confirmed, the last owner).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { Operator, Role } from '../types';
import { consoleAct } from './console-act';

export const getOperators = () => consoleCall(() => api.get<Operator[]>('/api/admin/operators'));

export const operatorsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/admin/operators'],
    queryFn: getOperators,
    meta: { private: true },
    staleTime: 0,
  });

export const useOperators = () => useQuery(operatorsQueryOptions());

export interface OperatorInput {
  email: string;
  /** null: the account leaves the back office. */
  role: Role | null;
  idempotencyKey: string;
}

export const setOperator = ({ idempotencyKey, ...body }: OperatorInput) =>
  consoleAct<Operator>('/api/admin/operators', 'PUT', body, idempotencyKey);

export function useSetOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOperator,
    meta: { private: true },
    // (Every console call reads `console/me` again: an owner who changed their own role sees
    // the console as it now is for them.)
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorsQueryOptions().queryKey }),
  });
}
