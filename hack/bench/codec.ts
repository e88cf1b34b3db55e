// In-process codec figures (no server involved): a StatefulSet encoded and decoded as JSON and as
// protobuf, the comparison the protobuf codec's issue quotes.
import { performance } from 'node:perf_hooks';
import { allGroupVersions } from '../../api/index.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { fixtures } from '../../test/integration/fixtures.js';
import type { Report } from './report.js';

export function codecFigures(report: Report, rounds: number): void {
  report.line(`\n## codecs (in the bench process, ${rounds} rounds)`);
  const scheme = new Scheme(allGroupVersions);
  const codec = new ProtobufCodec(scheme);
  const sts = scheme.resource('apps', 'v1', 'statefulsets')!;
  const obj = fixtures.find((f) => f.kind === 'StatefulSet')!.make('bench') as Record<string, unknown>;
  for (const [name, roundTrip] of [
    ['StatefulSet JSON encode+decode', () => JSON.parse(JSON.stringify(obj)) as unknown],
    ['StatefulSet protobuf encode+decode', () => codec.decodeObject(sts, codec.encodeObject(sts, obj))],
  ] as const) {
    const start = performance.now();
    for (let i = 0; i < rounds; i++) roundTrip();
    const us = ((performance.now() - start) / rounds) * 1000;
    report.figure(name, us, 'µs');
    report.add({ figure: `${name} (µs)`, orch: us.toFixed(0) });
  }
}
