// The registry's half of a read whose answer is a stream from elsewhere (upstream's
// rest.GetterWithOptions returning a LocationStreamer, as pods/log does): given the options read
// off the query, where to read the stream and how to label it. The endpoints layer does the reading.
import type { ProxyTarget } from '../../util/proxy/upgrade-aware.js';

export interface StreamRequest {
  namespace: string;
  name: string;
  /** The options read off the query (PodLogOptions, ...). */
  options: Record<string, unknown>;
}

/** Where a stream is read from, and how it is answered. */
export interface StreamLocation extends ProxyTarget {
  /** The Content-Type of the answer, whatever the backend says. */
  contentType: string;
}

/** Where the stream is; undefined when there is nothing to stream yet (upstream's nil location: 204 No Content). */
export type StreamGetter = (req: StreamRequest) => Promise<StreamLocation | undefined>;
