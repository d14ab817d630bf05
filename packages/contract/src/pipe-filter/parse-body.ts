/**
 * The SQS body as Pipes reads it for filtering and input templates: parsed when it is a JSON object or array
 * (Pipes' "implicit body data parsing"), otherwise the raw string.
 */
export function parseBody(body: string): { json: true; value: object } | { json: false; value: string } {
  const trimmed = body.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const value: unknown = JSON.parse(body);
      if (value !== null && typeof value === "object") return { json: true, value };
    } catch {
      // not JSON: a plain string body
    }
  }
  return { json: false, value: body };
}
