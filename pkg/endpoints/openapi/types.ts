// The JSON shapes the OpenAPI builders pass around. Documents are plain JSON values, built once at
// start-up and serialised by the caller.

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** The two published dialects: Swagger 2.0 (/openapi/v2) and OpenAPI 3.0 (/openapi/v3). */
export type Dialect = 'v2' | 'v3';

export interface GroupVersionKind {
  group: string;
  kind: string;
  version: string;
}

/** What the builders need of the server's version (pkg/version's /version document). */
export interface VersionInfoLike {
  gitVersion: string;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
