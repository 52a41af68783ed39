import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { endSession, hasSessionHint, startSession, userQueryOptions, useUser } from './auth';
import { createQueryClient } from './query-client';

const privateOrders = { queryKey: ['/api/orders'], meta: { private: true } } as const;
const publicConfig = { queryKey: ['/api/config'] } as const;
const ann = { id: '1', username: 'ann@example.com', email_verified: true };

function signedInClient() {
  const client = createQueryClient();
  startSession(client, ann);
  client.setQueryData(publicConfig.queryKey, { site_name: 'Ferry' });
  return client;
}

describe('the session on this browser', () => {
  it('keeps only a hint that a session exists, never a token', () => {
    const client = signedInClient();
    expect(hasSessionHint()).toBe(true);
    expect(Object.values({ ...localStorage })).toEqual(['1']);
    expect(client.getQueryData(userQueryOptions().queryKey)).toEqual(ann);
  });

  it('forgets the user and every private query at sign-out, and keeps public data', async () => {
    const client = signedInClient();
    await client.prefetchQuery({ ...privateOrders, queryFn: () => [{ id: 'ORDER1' }] });
    endSession(client);
    expect(client.getQueryData(privateOrders.queryKey)).toBeUndefined();
    expect(client.getQueryData(userQueryOptions().queryKey)).toBeNull();
    expect(client.getQueryData(publicConfig.queryKey)).toEqual({ site_name: 'Ferry' });
    expect(hasSessionHint()).toBe(false);
  });

  it('signs out what is on screen: the header and the guards see nobody at once', async () => {
    const client = signedInClient();
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
    const { result } = renderHook(() => useUser(), { wrapper });
    expect(result.current.user).toEqual(ann);
    await act(async () => {
      endSession(client);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(result.current.user).toBeNull();
  });

  it('signs out when a private call answers 401', async () => {
    const client = signedInClient();
    await client.prefetchQuery({
      ...privateOrders,
      queryFn: () => Promise.reject(new ApiError('Unauthorized', 401, null)),
    });
    expect(client.getQueryData(userQueryOptions().queryKey)).toBeNull();
    expect(hasSessionHint()).toBe(false);
  });

  it('stays signed in when a public call answers 401 (a wrong password)', async () => {
    const client = signedInClient();
    await client.prefetchQuery({
      queryKey: ['/api/something-public'],
      queryFn: () => Promise.reject(new ApiError('Invalid email or password', 401, null)),
    });
    expect(client.getQueryData(userQueryOptions().queryKey)).toEqual(ann);
  });

  it('signs out when a private mutation answers 401', async () => {
    const client = signedInClient();
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError('Unauthorized', 401, null)),
      meta: { private: true },
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(client.getQueryData(userQueryOptions().queryKey)).toBeNull();
  });
});
