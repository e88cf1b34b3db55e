// The aggregation layer's flags, named as kube-apiserver's: the client certificate this server
// presents to extension API servers as their front proxy.
import type { Argv } from 'yargs';

const group = 'Aggregator:';

export interface AggregatorOptions {
  /** --proxy-client-cert-file: the front-proxy client certificate (PEM) presented to extension API servers. */
  proxyClientCertFile: string;
  /** --proxy-client-key-file: its private key. */
  proxyClientKeyFile: string;
  /** Not a flag: how often each APIService's availability is checked again (upstream: 30 s). Tests lower it. */
  availabilityIntervalMs: number;
  /** Not a flag: how often the extension servers' discovery and OpenAPI documents are fetched again (upstream: 1 min). Tests lower it. */
  documentsIntervalMs: number;
}

export function aggregatorFlags<T>(y: Argv<T>) {
  return y
    .option('proxy-client-cert-file', {
      type: 'string', default: '', group,
      describe: 'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. It is expected that this cert includes a signature from the CA in the --requestheader-client-ca-file flag. That CA is published in the \'extension-apiserver-authentication\' configmap in the system namespace. Components receiving calls from kube-aggregator should use that CA to perform their half of the mutual TLS verification.',
    })
    .option('proxy-client-key-file', {
      type: 'string', default: '', group,
      describe: 'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins.',
    });
}

export function aggregatorOptionsFrom(p: Record<string, unknown>): AggregatorOptions {
  return {
    ...defaultAggregatorOptions(),
    proxyClientCertFile: String(p['proxy-client-cert-file'] ?? ''),
    proxyClientKeyFile: String(p['proxy-client-key-file'] ?? ''),
  };
}

export function validateAggregatorOptions(o: AggregatorOptions): string[] {
  return !!o.proxyClientCertFile !== !!o.proxyClientKeyFile ? ['--proxy-client-cert-file and --proxy-client-key-file must be given together'] : [];
}

/** The options with every flag at its default. */
export function defaultAggregatorOptions(): AggregatorOptions {
  return { proxyClientCertFile: '', proxyClientKeyFile: '', availabilityIntervalMs: 30_000, documentsIntervalMs: 60_000 };
}
