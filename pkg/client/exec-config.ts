// The `exec` stanza of a kubeconfig user (spec 5.11): the credential plug-in to run.

export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecConfig {
  /** Executable: a bare name is looked up on PATH; a relative path was resolved against the kubeconfig's directory. */
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  /** `client.authentication.<domain>/v1` or `/v1beta1`: the ExecCredential version sent and expected back. */
  apiVersion: string;
  installHint: string;
  provideClusterInfo: boolean;
  interactiveMode: ExecInteractiveMode;
}

/** The ExecCredential group/versions a plug-in may speak, in the platform domain. */
export function execAPIVersions(domainName: string): string[] {
  return [`client.authentication.${domainName}/v1`, `client.authentication.${domainName}/v1beta1`];
}

/** The cluster extension whose value reaches the plug-in as spec.cluster.config. */
export function execExtensionName(domainName: string): string {
  return `client.authentication.${domainName}/exec`;
}
