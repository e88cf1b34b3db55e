import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { StoredObject } from '../storage/interface.js';
import { ResolveError, ServiceResolver } from './service-resolver.js';

const objects = (m: Record<string, unknown>) => async (ns: string, name: string) => m[`${ns}/${name}`] as StoredObject | undefined;
const apiService = (port?: number): APIService => ({ spec: { group: 'metrics.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, service: { namespace: 'ns', name: 'm', ...(port ? { port } : {}) } } });
const reason = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof ResolveError ? `${e.reason}: ${e.message}` : String(e);
  }
};

test('the Service port of the APIService\'s number leads to an Endpoints address on the port of the same name', async () => {
  const r = new ServiceResolver(
    objects({ 'ns/m': { spec: { ports: [{ name: 'web', port: 80 }, { name: 'https', port: 443 }] } } }),
    objects({ 'ns/m': { subsets: [{ addresses: [{ ip: '10.0.0.7' }], ports: [{ name: 'web', port: 8080 }, { name: 'https', port: 4443 }] }] } }),
  );
  assert.deepEqual(await r.resolve(apiService()), { host: '10.0.0.7', port: 4443 });
  const b = await r.backend(apiService(), {});
  assert.equal(b.origin.toString(), 'https://10.0.0.7:4443/');
  assert.equal(b.tls.serverName, 'm.ns.svc');
});

test('an ExternalName Service is reached at its name on the APIService\'s port', async () => {
  const r = new ServiceResolver(objects({ 'ns/m': { spec: { type: 'ExternalName', externalName: 'metrics.example.org' } } }), objects({}));
  assert.deepEqual(await r.resolve(apiService(8443)), { host: 'metrics.example.org', port: 8443 });
});

test('each way of not being reachable has upstream\'s reason and message', async () => {
  const none = new ServiceResolver(objects({}), objects({}));
  assert.equal(await reason(none.resolve(apiService())), 'ServiceNotFound: service/m in "ns" is not present');
  const svc = objects({ 'ns/m': { spec: { ports: [{ name: 'https', port: 443 }] } } });
  assert.equal(await reason(new ServiceResolver(svc, objects({})).resolve(apiService(8443))), 'ServicePortError: service/m in "ns" is not listening on port 8443');
  assert.equal(await reason(new ServiceResolver(svc, objects({})).resolve(apiService())), 'EndpointsNotFound: cannot find endpoints for service/m in "ns"');
  const otherPort = objects({ 'ns/m': { subsets: [{ addresses: [{ ip: '10.0.0.7' }], ports: [{ name: 'web', port: 8080 }] }, { notReadyAddresses: [{ ip: '10.0.0.8' }], ports: [{ name: 'https', port: 4443 }] }] } });
  assert.equal(await reason(new ServiceResolver(svc, otherPort).resolve(apiService())), 'MissingEndpoints: endpoints for service/m in "ns" have no addresses with port name "https"');
});
