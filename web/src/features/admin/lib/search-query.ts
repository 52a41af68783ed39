// The address's query of a console page's search or filters (`?q=…&status=…`): the values that
// are set, in the order given; an empty string when none is.
export function queryOf(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}
