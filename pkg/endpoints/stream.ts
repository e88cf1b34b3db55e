// Reads answered by a stream from elsewhere (pods/log), as upstream's GET handler serves a getter
// with options and writes its LocationStreamer: the options read off the query (a conversion error
// is a 400), the registry says where the stream is, a backend's refusal becomes a Status, and its
// answer goes to the client as it arrives, for as long as both ends stay; a client that leaves
// closes the backend request. Nothing to stream yet is 204 No Content, as upstream answers it.
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newGenericServerResponse, newInternalError, StatusError, type GroupResource } from '../runtime/errors.js';
import type { StreamGetter } from '../registry/rest/stream.js';
import { ProxyError } from '../util/proxy/upgrade-aware.js';
import { getLocation } from '../util/proxy/location.js';
import { optionsFromQuery } from './query-options.js';
import type { KindRequest } from './resource-handlers.js';

/** How much of a refusal's body upstream's response checker reads. */
const MAX_REFUSAL_BYTES = 50_000;
const redirectCodes = new Set([301, 302, 303, 307, 308]);

/** The body of a backend's refusal, read up to the limit, as text. */
async function refusalText(backend: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of backend as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_REFUSAL_BYTES) break;
  }
  backend.destroy();
  return Buffer.concat(chunks).subarray(0, MAX_REFUSAL_BYTES).toString('utf8');
}

/** A backend answer that is not a stream to pass on, as upstream's GenericHttpResponseChecker words it. */
async function refusal(backend: IncomingMessage, url: URL, rejectRedirects: boolean, gr: GroupResource, name: string): Promise<StatusError | undefined> {
  const code = backend.statusCode ?? 500;
  if (rejectRedirects && redirectCodes.has(code) && backend.headers.location) {
    backend.destroy();
    return new StatusError(500, '', `Get "${new URL(backend.headers.location, url).toString()}": redirects forbidden`);
  }
  if (code >= 200 && code <= 206) return undefined;
  const text = await refusalText(backend);
  if (code === 500) return newInternalError(text);
  if (code === 400) return newBadRequest(text);
  return newGenericServerResponse(code, '', gr, name, text);
}

/** Serves one streamed read; `r.resource` is the options kind of the sub-resource. */
export async function serveStream(r: KindRequest, getter: StreamGetter, track?: (stop: () => void) => () => void): Promise<void> {
  const { info, res } = r;
  const options = optionsFromQuery(r.resource.kind, r.resource.schema, info.query);
  const location = await getter({ namespace: info.namespace, name: info.name, options });
  if (!location) {
    res.writeHead(204);
    res.end();
    return;
  }
  const abort = new AbortController();
  const leave = () => abort.abort();
  res.once('close', leave);
  let backend: IncomingMessage;
  try {
    backend = await getLocation(location, abort.signal);
  } catch (err) {
    res.off('close', leave);
    if (res.destroyed) return;
    // Upstream answers an error that is no Status as a 500 with no reason, in the client's words.
    if (err instanceof ProxyError) throw new StatusError(500, '', err.message);
    throw err;
  }
  const refused = await refusal(backend, location.url, location.rejectRedirects ?? false, { group: r.resource.groupResource.group, resource: `${info.resource}/${info.subresource}` }, info.name);
  if (refused) {
    res.off('close', leave);
    throw refused;
  }
  res.writeHead(200, { 'Content-Type': location.contentType });
  await new Promise<void>((resolve) => {
    // At shutdown the stream ends where it is, as a watch does.
    const untrack = track?.(() => {
      backend.unpipe(res);
      res.end();
    });
    res.once('close', () => {
      untrack?.();
      backend.destroy();
      resolve();
    });
    // A backend that breaks off ends the answer cleanly, as upstream's copy loop returns then.
    backend.on('error', () => res.end());
    backend.once('close', () => res.end());
    backend.pipe(res);
  });
}
