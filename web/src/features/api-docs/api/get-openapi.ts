// `GET /api/openapi.json`: the document the reference page is drawn from.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface SchemaObject {
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  description?: string;
  example?: unknown;
  $ref?: string;
}

export interface Operation {
  tags?: string[];
  summary?: string;
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaObject }[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', Operation>>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/openapi.json'],
    queryFn: () => api.get<OpenApiDocument>('/api/openapi.json'),
  });

export function useOpenApi() {
  return useQuery(openApiQueryOptions());
}
