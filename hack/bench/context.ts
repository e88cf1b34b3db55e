// What every group of figures works with.
import type { ApiClient } from './api-client.js';
import type { BenchCluster } from './cluster.js';
import type { BenchConfig } from './config.js';
import type { LoaderPool } from './loader-pool.js';
import type { CpuSnapshot } from './proc-stats.js';
import type { Report } from './report.js';

export interface BenchContext {
  config: BenchConfig;
  cluster: BenchCluster;
  pool: LoaderPool;
  /** The main thread's own client, for setup and for the writes of the watch figures. */
  api: ApiClient;
  report: Report;
  /** CPU used so far by the server, etcd and the load tool. */
  cpu(): CpuSnapshot;
}
