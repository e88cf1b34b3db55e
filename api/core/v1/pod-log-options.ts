// PodLogOptions: the query options of pods/log, which reads a container's log from its node agent.
// They arrive as query parameters, never as a body. Field numbers follow upstream core/v1
// generated.proto.
import type { Static } from '@sinclair/typebox';
import { bool, int64, object, opt, str } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { typeMeta } from './connect-options.js';

export const PodLogOptions = object('io.orch.api.core.v1.PodLogOptions', {
  ...typeMeta,
  container: opt(str(1, { description: 'The container whose log to read; may be omitted when the pod has one container.' })),
  follow: opt(bool(2, { description: 'Whether to keep streaming the log as the container writes it.' })),
  previous: opt(bool(3, { description: 'Whether to read the log of the container\'s previous, terminated instance.' })),
  sinceSeconds: opt(int64(4, { description: 'Only lines written in this many seconds before now; at most one of sinceSeconds and sinceTime.' })),
  sinceTime: opt(time(5, { description: 'Only lines written at or after this time (RFC 3339); at most one of sinceSeconds and sinceTime.' })),
  timestamps: opt(bool(6, { description: 'Whether to begin every line with the RFC 3339 time it was written at.' })),
  tailLines: opt(int64(7, { description: 'Only this many lines from the end of the log.' })),
  limitBytes: opt(int64(8, { description: 'Stop after this many bytes of log (the last line may be cut).' })),
  insecureSkipTLSVerifyBackend: opt(bool(9, {
    description: 'Whether the API server reads the log without verifying the node agent\'s serving certificate (it still presents its client certificate).',
  })),
}, { description: 'The query options of pods/log: which container\'s log to read, from where, and whether to follow it.' });
export type PodLogOptions = Static<typeof PodLogOptions>;
