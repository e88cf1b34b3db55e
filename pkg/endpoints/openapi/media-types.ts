// Media types the published operations accept and answer with, in upstream's lists with the
// domain's protobuf name (application/vnd.orch.protobuf).

/** Bodies of create, update and delete are negotiated by Content-Type, so any type is declared. */
export const anyMediaType = '*/*';

/**
 * Types of responses carrying objects; lists that stream watch events when asked with watch=true
 * add the stream types. `protobuf` is '' for kinds without a protobuf form.
 */
export function responseMediaTypes(protobuf: string, streams: boolean): string[] {
  const objects = ['application/json', 'application/yaml', ...(protobuf ? [protobuf] : [])];
  return streams ? [...objects, 'application/json;stream=watch', ...(protobuf ? [`${protobuf};stream=watch`] : [])] : objects;
}

/** PATCH bodies: JSON patch, merge patch, strategic merge patch and server-side apply. */
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** PATCH bodies of custom resources, which have no strategic merge patch. */
export const customPatchMediaTypes = patchMediaTypes.filter((t) => t !== 'application/strategic-merge-patch+json');

/** The PATCH bodies an operation accepts. */
export const patchMediaTypesOf = (body: { customResource?: boolean }) => (body.customResource ? customPatchMediaTypes : patchMediaTypes);
