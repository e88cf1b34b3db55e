// The release of this code base; /version reports it in upstream's shape.

/** The orch release. */
export const orchVersion = '0.1.0';

/** The upstream API level the server's behaviour follows; clients read major/minor from /version. */
export const compatibleKubernetes = { major: '1', minor: '30' };

/** The version string /version and --version report: upstream's level with the orch release as build metadata. */
export const gitVersion = `v${compatibleKubernetes.major}.${compatibleKubernetes.minor}.0+orch.${orchVersion}`;
