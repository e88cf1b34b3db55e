// The OpenAPI documents the server publishes, generated from the scheme's schemas: build them once
// at start-up and serve the serialised bytes.
export { buildOpenAPIV2 } from './v2.js';
export { buildOpenAPIV3Documents, buildOpenAPIV3Index } from './v3.js';
export { openAPIHash, serializeOpenAPI } from './canonical.js';
export type { VersionInfoLike } from './types.js';
