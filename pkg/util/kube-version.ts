// Kubernetes' ordering of API versions (upstream's version.CompareKubeAwareVersionStrings): GA
// before beta before alpha, higher numbers first, and anything not shaped like v<N>[alpha|beta<M>]
// last, in lexical order. A custom resource's versions are discovered in this order.

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

interface Parsed {
  major: number;
  /** 2 GA, 1 beta, 0 alpha. */
  stage: number;
  minor: number;
}

function parse(v: string): Parsed | undefined {
  const m = kubeVersion.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), stage: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: m[3] === undefined ? 0 : Number(m[3]) };
}

/** Negative when `a` comes first (has the higher priority), positive when `b` does, 0 when equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (!pa) return 1;
  if (!pb) return -1;
  if (pa.stage !== pb.stage) return pb.stage - pa.stage;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

/** The stability a version's name declares: v1 stable, v1beta1 beta; v1alpha1 and names of another shape alpha. */
export function versionStability(v: string): 'stable' | 'beta' | 'alpha' {
  const p = parse(v);
  return p?.stage === 2 ? 'stable' : p?.stage === 1 ? 'beta' : 'alpha';
}
