// The chart's topology as processes on loopback: each pod of the StatefulSet and Deployments that
// `helm template` rendered becomes a process running the container's own command, arguments
// and environment, with what a cluster would provide mapped onto this machine: the image's
// /usr/local/bin programs to the built _output/bin ones (etcd to the one on PATH), every container
// port to a free loopback port of that pod, the members' headless DNS names and the Services' names
// to those ports, and each mounted Secret, ConfigMap, emptyDir or volume claim to files under a
// directory of the pod's own (kept across restarts, as a claim is). Like a kubelet, it restarts a
// process that exits unless the test stopped it.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../integration/framework/etcd.js';
import type { RenderedObject } from './chart.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../../..');

interface ContainerPort { name?: string; containerPort: number }
interface VolumeMount { name: string; mountPath: string }
interface Volume { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] }; configMap?: { name: string; items?: { key: string; path: string }[] }; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }
interface EnvVar { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }
interface Container { name: string; command?: string[]; args?: string[]; env?: EnvVar[]; ports?: ContainerPort[]; volumeMounts?: VolumeMount[] }
interface WorkloadSpec {
  replicas: number;
  serviceName?: string;
  template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; volumes?: Volume[] } };
  volumeClaimTemplates?: { metadata: { name: string } }[];
}
interface ServiceSpec { selector?: Record<string, string>; ports?: { port: number; targetPort?: string | number }[] }

export type Component = 'etcd' | 'apiserver' | 'controller-manager';

/** One pod of the chart, run as a process. */
export class PodProcess {
  /** Container port -> the loopback port this pod has it on. */
  readonly ports = new Map<number, number>();
  readonly portsByName = new Map<string, number>();
  cmd = '';
  args: string[] = [];
  env: Record<string, string> = {};
  private proc: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  /** Stopped on purpose: not restarted. */
  private held = false;
  private log = '';
  restarts = 0;

  constructor(readonly name: string, readonly component: Component, readonly root: string, readonly container: Container, readonly volumes: Volume[]) {}

  get pid(): number | undefined {
    return this.proc && this.proc.exitCode === null && this.proc.signalCode === null ? this.proc.pid : undefined;
  }

  /** The last 20,000 characters it printed. */
  output(): string {
    return this.log;
  }

  /** Starts it (again, on the same ports and files). */
  start(): void {
    this.held = false;
    const proc = spawn(this.cmd, this.args, { env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    const keep = (d: Buffer) => {
      this.log = (this.log + d.toString()).slice(-20_000);
      appendFileSync(join(this.root, 'output.log'), d);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    this.exited = new Promise((r) => proc.once('close', (code, signal) => {
      keep(Buffer.from(`\n[exited: ${signal ?? code}]\n`));
      r();
      // As a kubelet with restartPolicy Always (without its back-off: the test has minutes, not hours).
      if (!this.held && this.proc === proc) {
        this.restarts++;
        setTimeout(() => {
          if (!this.held && this.proc === proc) this.start();
        }, 500).unref();
      }
    }));
  }

  /** SIGKILL, held down until start(). */
  async kill(): Promise<void> {
    this.held = true;
    if (this.pid !== undefined) this.proc!.kill('SIGKILL');
    await this.exited;
  }
}

/** The rendered chart as pods, with the files each one mounts. */
export class Topology {
  readonly pods: PodProcess[] = [];
  private readonly secrets = new Map<string, Record<string, string>>();
  private readonly configMaps = new Map<string, Record<string, string>>();
  /** Service name -> the pod that stands behind it, and the container port (number or name) behind each of the Service's ports. */
  private readonly services = new Map<string, { pod: PodProcess; targetPorts: Map<number, string | number> }>();
  private readonly headless = new Map<string, PodProcess[]>();
  /** Every port handed to a pod. */
  private readonly taken = new Set<number>();

  private constructor(readonly dir: string, readonly namespace: string, readonly clusterDomain: string) {}

  /**
   * The pods of `manifests`; `backend` picks the pod a Service's name reaches among the ones it
   * selects (a Service spreads connections; here one port stands for it).
   */
  static async build(manifests: readonly RenderedObject[], namespace: string, backend: (service: string, pods: PodProcess[]) => PodProcess, clusterDomain = 'cluster.local'): Promise<Topology> {
    const t = new Topology(mkdtempSync(join(tmpdir(), 'orch-ha-')), namespace, clusterDomain);
    for (const m of manifests) {
      const data = m.data ?? {};
      if (m.kind === 'Secret') t.secrets.set(m.metadata.name, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])));
      if (m.kind === 'ConfigMap') t.configMaps.set(m.metadata.name, data);
    }
    for (const m of manifests) {
      if (m.kind !== 'StatefulSet' && m.kind !== 'Deployment') continue;
      const spec = m.spec as unknown as WorkloadSpec;
      const podSpec = spec.template.spec;
      const container = podSpec.containers[0]!;
      const labels = spec.template.metadata.labels;
      const component = labels['app.kubernetes.io/component'] as Component;
      const volumes = [...(podSpec.volumes ?? []), ...(spec.volumeClaimTemplates ?? []).map((c) => ({ name: c.metadata.name, persistentVolumeClaim: { claimName: c.metadata.name } }))];
      const members: PodProcess[] = [];
      for (let i = 0; i < spec.replicas; i++) {
        const name = `${m.metadata.name}-${i}`;
        const root = join(t.dir, name);
        mkdirSync(root, { recursive: true });
        const pod = new PodProcess(name, component, root, container, volumes);
        for (const p of container.ports ?? []) {
          const port = await t.freshPort();
          pod.ports.set(p.containerPort, port);
          if (p.name) pod.portsByName.set(p.name, port);
        }
        members.push(pod);
        t.pods.push(pod);
      }
      if (spec.serviceName) t.headless.set(spec.serviceName, members);
      for (const s of manifests.filter((x) => x.kind === 'Service')) {
        const service = s.spec as unknown as ServiceSpec;
        const selector = service.selector ?? {};
        if (Object.keys(selector).length === 0 || !Object.entries(selector).every(([k, v]) => labels[k] === v)) continue;
        const targetPorts = new Map<number, string | number>((service.ports ?? []).map((p) => [p.port, p.targetPort ?? p.port]));
        t.services.set(s.metadata.name, { pod: backend(s.metadata.name, members), targetPorts });
      }
    }
    for (const pod of t.pods) t.prepare(pod);
    return t;
  }

  /**
   * A free port no pod of this topology has yet: ports are found free one by one and bound only when
   * the processes start, so the same free port may be offered twice.
   */
  private async freshPort(): Promise<number> {
    for (;;) {
      const port = await freePort();
      if (!this.taken.has(port)) {
        this.taken.add(port);
        return port;
      }
    }
  }

  /** The loopback port `pod` has the port a Service or headless name targets on. */
  private podPort(pod: PodProcess, target: string | number): number {
    const port = typeof target === 'number' ? pod.ports.get(target) : pod.portsByName.get(target);
    if (port === undefined) throw new Error(`pod ${pod.name} has no port ${target}`);
    return port;
  }

  /** host:port of the cluster (a pod's DNS name, a Service's, 0.0.0.0 of `self`) -> 127.0.0.1:<port>. */
  private address(host: string, port: number, self: PodProcess): string {
    if (host === '0.0.0.0' || host === '127.0.0.1' || host === 'localhost') {
      const mapped = self.ports.get(port);
      return `127.0.0.1:${mapped ?? port}`;
    }
    const suffixes = ['', `.${this.namespace}`, `.${this.namespace}.svc`, `.${this.namespace}.svc.${this.clusterDomain}`];
    for (const [service, members] of this.headless) {
      for (const suffix of suffixes) {
        const m = new RegExp(`^(.+)\\.${service.replace(/[.]/g, '\\.')}${suffix.replace(/[.]/g, '\\.')}$`).exec(host);
        const pod = m && members.find((p) => p.name === m[1]);
        if (pod) {
          const target = this.services.get(service)?.targetPorts.get(port) ?? port;
          return `127.0.0.1:${this.podPort(pod, target)}`;
        }
      }
    }
    for (const [service, { pod, targetPorts }] of this.services) {
      if (suffixes.some((s) => host === `${service}${s}`)) return `127.0.0.1:${this.podPort(pod, targetPorts.get(port) ?? port)}`;
    }
    throw new Error(`no pod or Service of the chart is named ${host}`);
  }

  /** `text` with every scheme://host:port of the cluster made the loopback address `self` reaches it at. */
  private rewriteURLs(text: string, self: PodProcess): string {
    return text.replace(/(https?:\/\/)([A-Za-z0-9.-]+):(\d+)/g, (_all, scheme: string, host: string, port: string) => `${scheme}${this.address(host, Number(port), self)}`);
  }

  /** The command line, environment and files of `pod`. */
  private prepare(pod: PodProcess): void {
    const c = pod.container;
    const fields: Record<string, string> = { 'metadata.name': pod.name, 'metadata.namespace': this.namespace, 'status.podIP': '127.0.0.1' };
    for (const e of c.env ?? []) pod.env[e.name] = e.value ?? fields[e.valueFrom?.fieldRef?.fieldPath ?? ''] ?? '';
    const mounts = (c.volumeMounts ?? []).slice().sort((a, b) => b.mountPath.length - a.mountPath.length);
    /** A path inside a mounted volume, made the pod's file; any other path as it is. */
    const local = (path: string) => (mounts.some((m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`)) ? join(pod.root, path) : path);
    const expand = (arg: string) => arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string) => pod.env[name] ?? all);
    const program = c.command?.[0] ?? '';
    pod.cmd = program.startsWith('/usr/local/bin/') ? join(repo, '_output/bin', program.slice('/usr/local/bin/'.length)) : program;
    pod.args = [...(c.command ?? []).slice(1), ...(c.args ?? [])].map((a) => {
      const arg = this.rewriteURLs(expand(a), pod);
      const flag = /^(--[\w-]+)=(.*)$/.exec(arg);
      if (!flag) return arg;
      const name = flag[1]!;
      const value = flag[2]!;
      if (name === '--secure-port') return `${name}=${pod.ports.get(Number(value)) ?? value}`;
      if (name === '--bind-address' || name === '--advertise-address') return `${name}=127.0.0.1`;
      return `${name}=${local(value)}`;
    });
    for (const m of mounts) {
      const v = pod.volumes.find((x) => x.name === m.name);
      const dir = join(pod.root, m.mountPath);
      mkdirSync(dir, { recursive: true });
      if (!v?.secret && !v?.configMap) continue; // an emptyDir or a claim: the directory is all
      const source = v.secret ? this.secrets.get(v.secret.secretName) : this.configMaps.get(v.configMap!.name);
      if (!source) throw new Error(`${pod.name}: the chart rendered no ${v.secret ? `Secret ${v.secret.secretName}` : `ConfigMap ${v.configMap!.name}`} for volume ${m.name}`);
      const items = v.secret?.items ?? v.configMap?.items ?? Object.keys(source).map((key) => ({ key, path: key }));
      for (const { key, path } of items) {
        const content = source[key];
        if (content === undefined) throw new Error(`${pod.name}: ${key} is not in the volume ${m.name}`);
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        // A kubeconfig names the Service: it reaches the loopback port that stands for it.
        writeFileSync(join(dir, path), key === 'kubeconfig' ? this.rewriteURLs(content, pod) : content, { mode: 0o600 });
      }
    }
  }

  /** A Secret's keys as rendered. */
  secret(name: string): Record<string, string> {
    const s = this.secrets.get(name);
    if (!s) throw new Error(`the chart rendered no Secret ${name}`);
    return s;
  }

  of(component: Component): PodProcess[] {
    return this.pods.filter((p) => p.component === component);
  }

  /** Every process killed, the files removed. */
  async stop(): Promise<void> {
    await Promise.all(this.pods.map((p) => p.kill()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** What to show when something fails: each pod's command line and its last lines. */
  describe(): string {
    return this.pods.map((p) => `--- ${p.name} (restarts ${p.restarts}) ---\n${[p.cmd, ...p.args].join(' ')}\n${p.output().slice(-3000)}`).join('\n');
  }
}
