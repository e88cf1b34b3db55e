// Services and Nodes through the real server: Service defaults, cluster IP and node port
// allocation from the configured ranges (conflicts and out-of-range requests are 422, concurrent
// creates never share an IP, deletes and type changes release what they held), headless and
// ExternalName services, the `kubernetes` Service and Endpoints made at start, and Nodes with
// their status, Table columns, field selector and validation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAPIServer } from '../../cmd/apiserver/app/server.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, testOptions, type TestServer } from './framework/apiserver.js';
import { Client } from './framework/client.js';
import { assertStatus } from './framework/assertions.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const svcPath = '/api/v1/namespaces/default/services';
const nodePath = '/api/v1/nodes';
const tableAccept = { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };

const causes = (r: { body: any }) => (r.body.details?.causes ?? []).map((c: { field: string }) => c.field);
const svc = (name: string, spec: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});

describe('services and nodes', () => {
  let t: TestServer;
  before(async () => {
    // A small range, so reuse after release is observable.
    t = await startTestServer({ serviceClusterIPRange: '10.0.0.0/26', serviceNodePortRange: '30000-30100' });
  });
  after(async () => t?.stop());

  test('a Service gets upstream defaults and a cluster IP from the range', async () => {
    const r = await t.client.post(svcPath, svc('web', { ports: [{ port: 80, targetPort: 0 }, { name: 'x', port: 81, protocol: 'UDP', targetPort: 'metrics' }] }));
    assert.equal(r.status, 422, 'two ports need names');
    assert.deepEqual(causes(r), ['spec.ports[0].name']);
    const c = await t.client.post(svcPath, svc('web'));
    assert.equal(c.status, 201, c.text);
    const s = c.body.spec;
    assert.equal(s.type, 'ClusterIP');
    assert.equal(s.sessionAffinity, 'None');
    assert.deepEqual(s.ports, [{ protocol: 'TCP', port: 80, targetPort: 80 }]);
    assert.equal(s.internalTrafficPolicy, 'Cluster');
    assert.equal(s.externalTrafficPolicy, undefined);
    assert.deepEqual(s.ipFamilies, ['IPv4']);
    assert.equal(s.ipFamilyPolicy, 'SingleStack');
    assert.match(s.clusterIP, /^10\.0\.0\.(\d+)$/);
    assert.deepEqual(s.clusterIPs, [s.clusterIP]);
    assert.notEqual(s.clusterIP, '10.0.0.1', 'the first IP is the kubernetes Service');
    assert.deepEqual(c.body.status, { loadBalancer: {} });
    // A PUT without the allocated values keeps them.
    const put = await t.client.put(`${svcPath}/web`, { metadata: { name: 'web' }, spec: { selector: { app: 'web2' }, ports: [{ port: 80 }] } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.spec.clusterIP, s.clusterIP);
    // The cluster IP cannot change (to another than the one allocated at random).
    const other = s.clusterIP === '10.0.0.50' ? '10.0.0.51' : '10.0.0.50';
    const moved = await t.client.patch(`${svcPath}/web`, { spec: { clusterIP: other, clusterIPs: [other] } });
    assertStatus(moved, 422, 'Invalid');
    assert.deepEqual(causes(moved), ['spec.clusterIPs[0]']);
    assert.match(moved.body.message, /may not change once set/);
  });

  test('a requested cluster IP is honoured once; a taken or out-of-range one is 422', async () => {
    // Two addresses the Service of the test above was not given at random.
    const web = (await t.client.get(`${svcPath}/web`)).body.spec.clusterIP;
    const [ipA, ipB] = ['10.0.0.10', '10.0.0.11', '10.0.0.12'].filter((ip) => ip !== web) as [string, string];
    const a = await t.client.post(svcPath, svc('fixed-a', { clusterIP: ipA }));
    assert.equal(a.status, 201, a.text);
    assert.equal(a.body.spec.clusterIP, ipA);
    const b = await t.client.post(svcPath, svc('fixed-b', { clusterIP: ipA }));
    assertStatus(b, 422, 'Invalid');
    assert.deepEqual(causes(b), ['spec.clusterIPs']);
    assert.equal(b.body.details.causes[0].message, `Invalid value: ["${ipA}"]: failed to allocate IP ${ipA}: provided IP is already allocated`);
    const out = await t.client.post(svcPath, svc('fixed-c', { clusterIP: '10.1.0.10' }));
    assertStatus(out, 422, 'Invalid');
    assert.match(out.body.message, /failed to allocate IP 10\.1\.0\.10: provided IP is not in the valid range\. The range of valid IPs is 10\.0\.0\.0\/26/);
    assert.equal((await t.client.get(`${svcPath}/fixed-b`)).status, 404);
    // Deleting releases the IP; the next request for it succeeds.
    assert.equal((await t.client.delete(`${svcPath}/fixed-a`)).status, 200);
    const again = await t.client.post(svcPath, svc('fixed-b', { clusterIP: ipA }));
    assert.equal(again.status, 201, again.text);
    // A dry run allocates nothing.
    const dry = await t.client.post(`${svcPath}?dryRun=All`, svc('dry', { clusterIP: ipB }));
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await t.client.post(svcPath, svc('wet', { clusterIP: ipB }))).status, 201);
    for (const n of ['fixed-b', 'wet']) await t.client.delete(`${svcPath}/${n}`);
  });

  test('20 concurrent creates get 20 distinct IPs, and deletes make them free again', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => t.client.post(svcPath, svc(`many-${i}`))));
    for (const r of created) assert.equal(r.status, 201, r.text);
    const ips = created.map((r) => r.body.spec.clusterIP as string);
    assert.equal(new Set(ips).size, 20, `distinct IPs: ${ips.join(' ')}`);
    // Fill the rest of the /26 (62 usable, the kubernetes Service and web hold two).
    const list = await t.client.get(svcPath.replace('/namespaces/default', ''));
    const inUse = (list.body.items as any[]).filter((s) => s.spec.clusterIP && s.spec.clusterIP !== 'None').length;
    const rest = await Promise.all(Array.from({ length: 62 - inUse }, (_, i) => t.client.post(svcPath, svc(`fill-${i}`))));
    for (const r of rest) assert.equal(r.status, 201, r.text);
    const full = await t.client.post(svcPath, svc('one-too-many'));
    assertStatus(full, 422, 'Invalid');
    assert.match(full.body.message, /range is full/);
    // Deleting one frees its IP for the next Service.
    const freed = ips[0]!;
    assert.equal((await t.client.delete(`${svcPath}/many-0`)).status, 200);
    const reuse = await t.client.post(svcPath, svc('reuse'));
    assert.equal(reuse.status, 201, reuse.text);
    assert.equal(reuse.body.spec.clusterIP, freed);
    await Promise.all([...Array.from({ length: 19 }, (_, i) => `many-${i + 1}`), ...rest.map((_, i) => `fill-${i}`), 'reuse']
      .map((n) => t.client.delete(`${svcPath}/${n}`)));
  });

  test('NodePort services get node ports; taken and out-of-range ports are 422; type changes release them', async () => {
    const np = await t.client.post(svcPath, svc('np', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    assert.equal(np.status, 201, np.text);
    assert.equal(np.body.spec.ports[0].nodePort, 30080);
    assert.equal(np.body.spec.externalTrafficPolicy, 'Cluster');
    const auto = await t.client.post(svcPath, svc('np-auto', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80, protocol: 'UDP' }] }));
    assert.equal(auto.status, 201, auto.text);
    const [pa, pb] = auto.body.spec.ports;
    assert.ok(pa.nodePort >= 30000 && pa.nodePort <= 30100, String(pa.nodePort));
    assert.equal(pb.nodePort, pa.nodePort, 'one node port for both protocols of a port');
    const taken = await t.client.post(svcPath, svc('np-taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    assertStatus(taken, 422, 'Invalid');
    assert.deepEqual(causes(taken), ['spec.ports[0].nodePort']);
    assert.equal(taken.body.details.causes[0].message, 'Invalid value: 30080: provided port is already allocated');
    const out = await t.client.post(svcPath, svc('np-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }));
    assertStatus(out, 422, 'Invalid');
    assert.match(out.body.message, /provided port is not in the valid range\. The range of valid ports is 30000-30100/);
    // The failed create let go of the cluster IP it had taken first.
    const ipsBefore = (await t.client.get(svcPath)).body.items.length;
    assert.ok(ipsBefore > 0);
    // A ClusterIP service may not name a node port.
    const bad = await t.client.post(svcPath, svc('cip-np', { ports: [{ port: 80, nodePort: 30090 }] }));
    assert.deepEqual(causes(bad), ['spec.ports[0].nodePort']);
    // NodePort -> ClusterIP drops and frees the node port; another Service can take it.
    const down = await t.client.patch(`${svcPath}/np`, { spec: { type: 'ClusterIP' } });
    assert.equal(down.status, 200, down.text);
    assert.equal(down.body.spec.ports[0].nodePort, undefined);
    assert.equal(down.body.spec.externalTrafficPolicy, undefined);
    const retake = await t.client.post(svcPath, svc('np-taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    assert.equal(retake.status, 201, retake.text);
    // LoadBalancer: node ports too, <pending> external IP, and a Local policy gets a health check port.
    const lb = await t.client.post(svcPath, svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    assert.equal(lb.status, 201, lb.text);
    assert.equal(lb.body.spec.allocateLoadBalancerNodePorts, true);
    assert.ok(lb.body.spec.ports[0].nodePort > 0);
    assert.ok(lb.body.spec.healthCheckNodePort >= 30000);
    const table = await t.client.get(svcPath, { headers: tableAccept });
    assert.equal(table.status, 200, table.text);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
    const row = (name: string) => (table.body.rows as any[]).find((r) => r.cells[0] === name).cells;
    assert.deepEqual(row('np-taken').slice(1, 5), ['NodePort', retake.body.spec.clusterIP, '<none>', '80:30080/TCP']);
    assert.deepEqual(row('lb').slice(1, 5), ['LoadBalancer', lb.body.spec.clusterIP, '<pending>', `80:${lb.body.spec.ports[0].nodePort}/TCP`]);
    assert.equal(row('np-auto')[4], `80:${pa.nodePort}/TCP,80:${pa.nodePort}/UDP`);
    assert.equal(row('np')[6], 'app=np');
    // Load balancer status goes through the status sub-resource.
    const st = await t.client.patch(`${svcPath}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.7' }] } } });
    assert.equal(st.status, 200, st.text);
    const t2 = await t.client.get(`${svcPath}/lb`, { headers: tableAccept });
    assert.equal(t2.body.rows[0].cells[3], '192.0.2.7');
    for (const n of ['np', 'np-auto', 'np-taken', 'lb']) await t.client.delete(`${svcPath}/${n}`);
  });

  test('headless and ExternalName services take no IP', async () => {
    const h = await t.client.post(svcPath, svc('headless', { clusterIP: 'None' }));
    assert.equal(h.status, 201, h.text);
    assert.deepEqual(h.body.spec.clusterIPs, ['None']);
    const hnp = await t.client.post(svcPath, svc('headless-np', { clusterIP: 'None', type: 'NodePort' }));
    assertStatus(hnp, 422, 'Invalid');
    assert.deepEqual(causes(hnp), ['spec.clusterIPs[0]']);
    const en = await t.client.post(svcPath, { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    assert.equal(en.status, 201, en.text);
    assert.equal(en.body.spec.clusterIP, undefined);
    assert.equal(en.body.spec.internalTrafficPolicy, undefined);
    const noName = await t.client.post(svcPath, { metadata: { name: 'ext2' }, spec: { type: 'ExternalName' } });
    assert.deepEqual(causes(noName), ['spec.externalName']);
    const table = await t.client.get(`${svcPath}/ext`, { headers: tableAccept });
    assert.deepEqual(table.body.rows[0].cells.slice(1, 5), ['ExternalName', '<none>', 'db.example.com', '<none>']);
    // ExternalName -> ClusterIP allocates an IP; back to ExternalName releases it.
    const up = await t.client.patch(`${svcPath}/ext`, { spec: { type: 'ClusterIP', externalName: null, ports: [{ port: 5432 }] } });
    assert.equal(up.status, 200, up.text);
    const ip = up.body.spec.clusterIP as string;
    assert.match(ip, /^10\.0\.0\./);
    const back = await t.client.patch(`${svcPath}/ext`, { spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.spec.clusterIP, undefined);
    const taker = await t.client.post(svcPath, svc('taker', { clusterIP: ip }));
    assert.equal(taker.status, 201, taker.text);
    for (const n of ['headless', 'ext', 'taker']) await t.client.delete(`${svcPath}/${n}`);
  });

  test('Service validation causes', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ports: [] }, ['spec.ports']],
      [{ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }, ['spec.ports[1].name']],
      [{ ports: [{ port: 80 }, { name: 'b', port: 80 }] }, ['spec.ports[0].name', 'spec.ports[1]']],
      [{ ports: [{ port: 80, targetPort: 'Not_A_Name' }] }, ['spec.ports[0].targetPort']],
      [{ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }, ['spec.sessionAffinityConfig.clientIP.timeoutSeconds']],
      [{ externalTrafficPolicy: 'Local' }, ['spec.externalTrafficPolicy']],
      [{ loadBalancerSourceRanges: ['10.0.0.0/8'] }, ['spec.loadBalancerSourceRanges']],
      [{ ipFamilies: ['IPv6'] }, ['spec.ipFamilies[0]']],
      [{ clusterIP: 'nope' }, ['spec.clusterIPs[0]']],
    ];
    for (const [spec, fields] of cases) {
      const r = await t.client.post(svcPath, svc('bad', spec));
      assertStatus(r, 422, 'Invalid', JSON.stringify(spec));
      assert.deepEqual(causes(r), fields, JSON.stringify(spec));
    }
    const name = await t.client.post(svcPath, svc('1abc'));
    assert.deepEqual(causes(name), ['metadata.name']);
    assert.match(name.body.message, /DNS-1035 label/);
  });

  test('the kubernetes Service, its Endpoints and its EndpointSlice exist from start', async () => {
    const s = await t.client.get(`${svcPath}/kubernetes`);
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.spec.clusterIP, '10.0.0.1');
    assert.deepEqual(s.body.spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: t.server.port }]);
    assert.deepEqual(s.body.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    const ep = await t.client.get('/api/v1/namespaces/default/endpoints/kubernetes');
    assert.equal(ep.status, 200, ep.text);
    assert.deepEqual(ep.body.subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: t.server.port, protocol: 'TCP' }] }]);
    assert.equal(ep.body.metadata.labels['endpointslice.orch.io/skip-mirror'], 'true', 'the server writes the slice itself: not mirrored');
    const slice = await t.client.get('/apis/discovery.orch.io/v1/namespaces/default/endpointslices/kubernetes');
    assert.equal(slice.status, 200, slice.text);
    assert.deepEqual(slice.body.metadata.labels, { 'orch.io/service-name': 'kubernetes' });
    assert.equal(slice.body.addressType, 'IPv4');
    assert.deepEqual(slice.body.endpoints, [{ addresses: ['127.0.0.1'], conditions: { ready: true } }]);
    assert.deepEqual(slice.body.ports, [{ name: 'https', protocol: 'TCP', port: t.server.port }]);
    const ready = await t.client.get('/readyz?verbose');
    assert.match(ready.text, /\[\+\]poststarthook\/bootstrap-controller ok/);
    // The first IP stays with it: nobody else can ask for it.
    const steal = await t.client.post(svcPath, svc('steal', { clusterIP: '10.0.0.1' }));
    assert.match(steal.body.message, /provided IP is already allocated/);
    // A restart reconciles a changed port back.
    const changed = await t.client.patch(`${svcPath}/kubernetes`, { spec: { ports: [{ name: 'https', port: 443, targetPort: 1 }] } });
    assert.equal(changed.status, 200, changed.text);
    await t.restart();
    const after = await t.client.get(`${svcPath}/kubernetes`);
    assert.equal(after.body.spec.ports[0].targetPort, t.server.port);
    assert.equal(after.body.metadata.uid, s.body.metadata.uid);
  });

  test('Nodes: create with status, status updates, Table columns, field selector and validation', async () => {
    const node = {
      metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.orch.io/worker': '' } },
      spec: { podCIDR: '10.244.1.0/24', providerID: 'aws:///i-1' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '192.168.0.10' }],
        nodeInfo: { kubeletVersion: 'v1.31.0', osImage: 'Debian GNU/Linux 12', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' },
      },
    };
    const c = await t.client.post(nodePath, node);
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.body.spec.podCIDRs, ['10.244.1.0/24']);
    assert.equal(c.body.status.conditions[0].type, 'Ready', 'status kept on create');
    assert.equal(c.body.status.nodeInfo.machineID, '');
    const n2 = await t.client.post(nodePath, { metadata: { name: 'n2' }, spec: { unschedulable: true } });
    assert.equal(n2.status, 201, n2.text);
    const table = await t.client.get(nodePath, { headers: tableAccept });
    assert.deepEqual(table.body.columnDefinitions.map((col: any) => col.name),
      ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime']);
    const row = (name: string) => (table.body.rows as any[]).find((r) => r.cells[0] === name).cells;
    const r1 = row('n1');
    assert.deepEqual([r1[1], r1[2], r1[4], ...r1.slice(5)], ['Ready', 'control-plane,worker', 'v1.31.0', '192.168.0.10', '<none>', 'Debian GNU/Linux 12', '6.1.0', 'containerd://1.7.0']);
    const r2 = row('n2');
    assert.deepEqual([r2[1], r2[2], r2[7]], ['Unknown,SchedulingDisabled', '<none>', '<unknown>']);
    // Status through the sub-resource: NotReady.
    const st = await t.client.patch(`${nodePath}/n1/status`, { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, 'application/strategic-merge-patch+json');
    assert.equal(st.status, 200, st.text);
    const t1 = await t.client.get(`${nodePath}/n1`, { headers: tableAccept });
    assert.equal(t1.body.rows[0].cells[1], 'NotReady');
    // The main resource ignores status changes.
    const ignored = await t.client.patch(`${nodePath}/n1`, { status: { phase: 'Running' } });
    assert.equal(ignored.body.status.phase, undefined);
    const sel = await t.client.get(`${nodePath}?fieldSelector=spec.unschedulable=true`);
    assert.deepEqual(sel.body.items.map((i: any) => i.metadata.name), ['n2']);
    // Validation.
    const cidr = await t.client.patch(`${nodePath}/n1`, { spec: { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] } });
    assertStatus(cidr, 422, 'Invalid');
    assert.deepEqual(causes(cidr), ['spec.podCIDRs']);
    const provider = await t.client.patch(`${nodePath}/n1`, { spec: { providerID: 'aws:///i-2' } });
    assert.deepEqual(causes(provider), ['spec.providerID']);
    const setOnce = await t.client.patch(`${nodePath}/n2`, { spec: { podCIDR: '10.244.3.0/24', providerID: 'x://y' } });
    assert.equal(setOnce.status, 200, setOnce.text);
    const taints = await t.client.post(nodePath, { metadata: { name: 'n3' }, spec: { podCIDR: 'nope', taints: [
      { key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoSchedule' }, { key: 'bad key', effect: 'NoExecute' }, { key: 'b', effect: 'Sometimes' },
    ] } });
    assertStatus(taints, 422, 'Invalid');
    assert.deepEqual(causes(taints).sort(), ['spec.podCIDRs[0]', 'spec.taints[1]', 'spec.taints[2].key', 'spec.taints[3].effect'].sort());
    const twoV4 = await t.client.post(nodePath, { metadata: { name: 'n3' }, spec: { podCIDRs: ['10.1.0.0/24', '10.2.0.0/24'] } });
    assert.deepEqual(causes(twoV4), ['spec.podCIDRs']);
    for (const n of ['n1', 'n2']) assert.equal((await t.client.delete(`${nodePath}/${n}`)).status, 200);
  });

  test('two API servers on one etcd never hand out the same IP or node port', async () => {
    const certDir = mkdtempSync(join(tmpdir(), 'orch-certs-'));
    const second = await runAPIServer(testOptions(t.etcd, certDir, { serviceClusterIPRange: '10.0.0.0/26', serviceNodePortRange: '30000-30100' }), new Logger(0, () => undefined));
    try {
      const other = new Client(`https://127.0.0.1:${second.port}`, second.cert.cert);
      const clients = [t.client, other];
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        clients[i % 2]!.post(svcPath, svc(`two-${i}`, { type: 'NodePort' }))));
      for (const r of created) assert.equal(r.status, 201, r.text);
      const ips = created.map((r) => r.body.spec.clusterIP as string);
      const ports = created.map((r) => r.body.spec.ports[0].nodePort as number);
      assert.equal(new Set(ips).size, 20, `distinct IPs: ${ips.join(' ')}`);
      assert.equal(new Set(ports).size, 20, `distinct node ports: ${ports.join(' ')}`);
      // One server releases on delete; the other can take what was released.
      assert.equal((await t.client.delete(`${svcPath}/two-0`)).status, 200);
      const retake = await other.post(svcPath, svc('two-retake', { type: 'NodePort', clusterIP: ips[0], ports: [{ port: 80, nodePort: ports[0] }] }));
      assert.equal(retake.status, 201, retake.text);
      await Promise.all([...created.slice(1).map((r) => r.body.metadata.name as string), 'two-retake'].map((n) => t.client.delete(`${svcPath}/${n}`)));
    } finally {
      // (The second server pointed the kubernetes Service and Endpoints at its own port.)
      await second.stop();
      rmSync(certDir, { recursive: true, force: true });
    }
  });

  test('kubectl: cluster-info, expose deployment, get svc and nodes -o wide', async () => {
    const kc = writeKubeconfig(t);
    try {
      const kubectl = new Kubectl(kc);
      const dep = await t.client.post('/apis/apps/v1/namespaces/default/deployments', {
        metadata: { name: 'shop' },
        spec: { selector: { matchLabels: { app: 'shop' } }, template: { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'shop', image: 'registry.example/shop:1' }] } } },
      });
      assert.equal(dep.status, 201, dep.text);
      const exposed = await kubectl.ok(['-n', 'default', 'expose', 'deployment', 'shop', '--port=80']);
      assert.match(exposed.stdout, /service\/shop exposed/);
      const shop = await t.client.get(`${svcPath}/shop`);
      assert.deepEqual(shop.body.spec.selector, { app: 'shop' });
      assert.deepEqual(shop.body.spec.ports, [{ protocol: 'TCP', port: 80, targetPort: 80 }]);
      const get = await kubectl.ok(['-n', 'default', 'get', 'svc', 'shop', '-o', 'wide']);
      assert.match(get.stdout, new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\s+SELECTOR\n`));
      assert.match(get.stdout, new RegExp(`shop\\s+ClusterIP\\s+${shop.body.spec.clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+\\S+\\s+app=shop`));
      // cluster-info: the control plane address, and the Services labelled as cluster services.
      const dns = await t.client.post('/api/v1/namespaces/orch-system/services', {
        metadata: { name: 'cluster-dns', labels: { 'kubernetes.io/cluster-service': 'true' } },
        spec: { selector: { app: 'dns' }, ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] },
      });
      assert.equal(dns.status, 201, dns.text);
      const info = await kubectl.ok(['cluster-info', '-n', 'orch-system']);
      const text = info.stdout.replace(/\x1b\[[0-9;]*m/g, '');
      assert.match(text, new RegExp(`control plane is running at https://127\\.0\\.0\\.1:${t.server.port}`));
      assert.match(text, /cluster-dns is running at https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/orch-system\/services\/cluster-dns:dns\/proxy/);
      const nodes = await kubectl.run(['get', 'nodes']);
      assert.equal(nodes.code, 0, nodes.describe());
      await t.client.delete(`${svcPath}/shop`);
      await t.client.delete('/api/v1/namespaces/orch-system/services/cluster-dns');
    } finally {
      kc.remove();
    }
  });
});
