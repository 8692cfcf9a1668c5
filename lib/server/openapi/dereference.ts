type Json = unknown;

/**
 * Replaces every local `$ref` of an OpenAPI document by what it points at, for readers that
 * show one operation at a time (the API reference page). A reference back into itself (a
 * recursive schema) is left as it is.
 */
export function dereference<T>(document: T): T {
  const root = document as Json;
  const resolve = (ref: string): Json =>
    ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json>((node, key) => (node as Record<string, Json>)[key], root);
  const walk = (node: Json, seen: ReadonlySet<string>): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, Json>;
    if (typeof $ref === 'string' && $ref.startsWith('#/')) {
      if (seen.has($ref)) return node;
      return walk({ ...(resolve($ref) as object), ...rest }, new Set([...seen, $ref]));
    }
    return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, walk(value, seen)]));
  };
  return walk(root, new Set()) as T;
}
