import type { StorageCodec, StoredObject } from './interface.js';

/** Stores objects as JSON without metadata.resourceVersion, which etcd's revisions supply. */
export const jsonStorageCodec: StorageCodec = {
  encode(obj: StoredObject): Buffer {
    const { resourceVersion: _rv, ...metadata } = obj.metadata;
    return Buffer.from(JSON.stringify({ ...obj, metadata }));
  },
  decode(data: Buffer): StoredObject {
    return JSON.parse(data.toString('utf8')) as StoredObject;
  },
};
