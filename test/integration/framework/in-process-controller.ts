// Runs controllers in the test process against a test server, as the controller manager would:
// a pkg/client Client from the server's kubeconfig, one shared informer factory, a context whose
// signal stops them. Used by the tests of single controllers, before the manager exists.
import { defaultApiDomain } from '../../../api/domain.js';
import { Client, SharedInformerFactory } from '../../../pkg/client/index.js';
import type { ControllerContext, ControllerFactory } from '../../../pkg/controller/controller.js';
import { Logger } from '../../../pkg/log/logger.js';
import type { TestServer } from './apiserver.js';
import { writeKubeconfig } from './kubeconfig.js';

export interface RunningControllers {
  client: Client;
  /** The controllers' log lines so far. */
  logs: string[];
  stop(): Promise<void>;
}

/** What the manager would add to the context from its flags (--root-ca-file). */
export interface ContextExtras {
  rootCA?: string;
}

/** Starts `factories` with the manager's defaults (`concurrency` overrides by flag stem). */
export async function runControllers(t: TestServer, factories: ControllerFactory[], concurrency: Record<string, number> = {}, extras: ContextExtras = {}): Promise<RunningControllers> {
  const kc = writeKubeconfig(t);
  const { client } = Client.fromKubeconfig(kc.path);
  const informers = new SharedInformerFactory(client);
  const abort = new AbortController();
  const logs: string[] = [];
  const logger = new Logger(5, (l) => {
    logs.push(l);
    if (process.env.ORCH_TEST_CONTROLLER_LOGS) process.stderr.write(l);
  });
  const ctx: ControllerContext = {
    client, informers, domain: defaultApiDomain, logger, signal: abort.signal,
    concurrency: (stem) => concurrency[stem] ?? 5,
    ...(extras.rootCA ? { rootCA: extras.rootCA } : {}),
  };
  const running = factories.map((f) => f().run(ctx));
  informers.start();
  return {
    client,
    logs,
    stop: async () => {
      abort.abort();
      await Promise.all(running);
      await informers.shutdown();
      client.close();
      kc.remove();
    },
  };
}
