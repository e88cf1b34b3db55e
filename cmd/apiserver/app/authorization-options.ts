// The authorization flags of the API server, named and defaulted as kube-apiserver's are.
import type { Argv } from 'yargs';
import { defaultAuthorizationOptions, parseStringSliceFlag, type AuthorizationOptions } from '../../../pkg/authorization/modes.js';
import { parseDuration } from '../../../pkg/util/duration.js';

const group = 'Authorization:';

/** Declares the flags on a yargs parser. */
export function authorizationFlags<T>(y: Argv<T>) {
  return y
    .option('authorization-mode', { type: 'string', array: true, default: [] as string[], describe: 'Ordered list of plug-ins to do authorization on secure port. Defaults to AlwaysAllow if --authorization-config is not used. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Webhook,RBAC,Node. Node authorizes node agents (users system:node:<name> in group system:nodes) by the pods bound to each node, as kubeadm clusters run it: --authorization-mode=Node,RBAC with --enable-admission-plugins=NodeRestriction.', group })
    .option('authorization-webhook-config-file', { type: 'string', default: '', describe: 'File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server\'s secure port.', group })
    .option('authorization-webhook-version', { type: 'string', default: 'v1', describe: 'The API version of the authorization.<domain> SubjectAccessReview to send to and expect from the webhook.', group })
    .option('authorization-webhook-cache-authorized-ttl', { type: 'string', default: '5m0s', describe: 'The duration to cache \'authorized\' responses from the webhook authorizer.', group })
    .option('authorization-webhook-cache-unauthorized-ttl', { type: 'string', default: '30s', describe: 'The duration to cache \'unauthorized\' responses from the webhook authorizer.', group });
}

/** The options from parsed flags; throws with the flag's name on a malformed value. */
export function authorizationOptionsFrom(p: Record<string, unknown>): AuthorizationOptions {
  const duration = (flag: string) => {
    try {
      return parseDuration(String(p[flag]));
    } catch (e) {
      throw new Error(`--${flag}: ${(e as Error).message}`);
    }
  };
  const occurrences = (Array.isArray(p['authorization-mode']) ? p['authorization-mode'] : [p['authorization-mode'] ?? '']).map(String);
  return {
    ...defaultAuthorizationOptions(),
    modes: parseStringSliceFlag('authorization-mode', occurrences.filter((o) => o !== '')),
    webhookConfigFile: String(p['authorization-webhook-config-file'] ?? ''),
    webhookVersion: String(p['authorization-webhook-version'] ?? 'v1'),
    webhookCacheAuthorizedTTLMs: duration('authorization-webhook-cache-authorized-ttl'),
    webhookCacheUnauthorizedTTLMs: duration('authorization-webhook-cache-unauthorized-ttl'),
  };
}
