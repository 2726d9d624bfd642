/** Keys in code-point order at every level; arrays keep their order (it means something there). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The OpenAPI document as docs/openapi.json keeps it: keys sorted, two-space indent, a trailing
 * newline, so the file changes only where the API does (npm run openapi writes it; a test compares
 * it with what /docs/json serves).
 */
export function openapiDocumentText(document: unknown): string {
  return `${JSON.stringify(sortedKeys(document), null, 2)}\n`;
}
