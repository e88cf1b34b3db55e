// Media types the published operations accept and answer with, in upstream's lists with our
// protobuf name (application/vnd.orch.protobuf).

/** Bodies of create, update and delete are negotiated by Content-Type, so any type is declared. */
export const anyMediaType = '*/*';

/** Responses carrying objects. */
export const objectMediaTypes = ['application/json', 'application/yaml', 'application/vnd.orch.protobuf'];

/** List operations also stream watch events when asked with watch=true. */
export const watchMediaTypes = ['application/json;stream=watch', 'application/vnd.orch.protobuf;stream=watch'];

/** PATCH bodies: JSON patch, merge patch, strategic merge patch and server-side apply. */
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
