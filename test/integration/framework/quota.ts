// ResourceQuota admission reads the quotas from an informer, which has a quota a moment after it
// is written; an object admitted before that is not charged, as upstream's is not. Tests that need
// every later write charged wait until admission sees the namespace's quotas.
import assert from 'node:assert/strict';
import { pollUntil } from './authentication.js';
import type { Client } from './client.js';

/**
 * Waits until ResourceQuota admission sees every quota (and quota status) written so far in
 * `namespace`: a last quota, on ServiceAccounts, refuses a dry-run create once it is seen, and
 * the informer sees writes in order. The quota stays; it charges nothing else.
 */
export async function quotasSeen(client: Client, namespace: string): Promise<void> {
  const base = `/api/v1/namespaces/${namespace}`;
  const hard = { 'count/serviceaccounts': '0' };
  const q = await client.post(`${base}/resourcequotas`, { metadata: { name: 'seen-by-admission' }, spec: { hard } });
  assert.equal(q.status, 201, q.text);
  const s = await client.put(`${base}/resourcequotas/seen-by-admission/status`, { ...q.body, status: { hard, used: { 'count/serviceaccounts': '0' } } });
  assert.equal(s.status, 200, s.text);
  await pollUntil(() => client.post(`${base}/serviceaccounts?dryRun=All`, { metadata: { name: 'quota-probe' } }), (r) => r.status === 403, `ResourceQuota admission to see the quotas of ${namespace}`);
}
