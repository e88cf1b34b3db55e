// Runs the real controller manager in the test process against a test server (its app's run
// function, as main.ts calls it), with the flags a test names and without leader election; its log
// goes to stderr with ORCH_TEST_LOG set. NodeCluster adds what tests of the node controllers need
// around it: fake node agents (fake-nodes.ts), a client and the real kubectl.
import { defaultOptions, type ControllerManagerOptions } from '../../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../cmd/controller-manager/app/server.js';
import { Client } from '../../../pkg/client/index.js';
import { Logger } from '../../../pkg/log/logger.js';
import { startTestServer, type TestServer } from './apiserver.js';
import { FakeNodes } from './fake-nodes.js';
import { writeKubeconfig, type Kubeconfig } from './kubeconfig.js';
import { Kubectl } from './kubectl.js';

/** Starts a manager on a free loopback port with the manager's defaults and `overrides`; stop() it when done. */
export function startControllerManager(kc: Kubeconfig, overrides: Partial<ControllerManagerOptions>, verbosity = 2): Promise<RunningControllerManager> {
  return runControllerManager({
    ...defaultOptions(), kubeconfig: kc.path, securePort: 0, bindAddress: '127.0.0.1', leaderElect: false, ...overrides,
  }, new Logger(verbosity, (l) => {
    if (process.env.ORCH_TEST_LOG) process.stderr.write(l);
  }));
}

/** A test server with the controller manager and node agents beside it. */
export interface NodeCluster {
  t: TestServer;
  client: Client;
  kubectl: Kubectl;
  agents: FakeNodes;
  cm: RunningControllerManager;
  stop(): Promise<void>;
}

/** Starts a server, then the manager with `overrides`, with node agents beating every `beatMs`. */
export async function startNodeCluster(overrides: Partial<ControllerManagerOptions>, beatMs?: number): Promise<NodeCluster> {
  const t = await startTestServer();
  const kc = writeKubeconfig(t);
  const client = Client.fromKubeconfig(kc.path).client;
  const agents = new FakeNodes(client, beatMs);
  const cm = await startControllerManager(kc, overrides);
  return {
    t, client, kubectl: new Kubectl(kc), agents, cm,
    stop: async () => {
      await cm.stop();
      await agents.stop();
      client.close();
      kc.remove();
      await t.stop();
    },
  };
}
