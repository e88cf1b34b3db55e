import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { errorMessage, Path } from '../../runtime/field-errors.js';
import { pruneUnknownFields } from '../../runtime/prune.js';
import { SchemaValidator } from '../../runtime/schema-validator.js';
import { validatePodTemplateSpec } from './pod-template-validation.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';

const policy = podSpecPolicy();

const schemas = new SchemaValidator();
const templatePath = Path.root('spec').child('template');

/** Decodes a template the way the server does: prune unknown fields, check and default by schema, default by code. */
function decode(yamlText: string): PodTemplateSpec {
  // kubectl turns YAML into JSON with YAML 1.1 rules (0644 is octal), so the tests do too.
  const t: unknown = parse(yamlText, { version: '1.1' });
  assert.deepEqual(pruneUnknownFields(PodTemplateSpec, t), [], 'no unknown fields');
  const { decodeErrors, fieldErrors } = schemas.check(PodTemplateSpec, t);
  assert.deepEqual(decodeErrors, []);
  assert.deepEqual(fieldErrors.map(errorMessage), []);
  defaultPodTemplateSpec(t as PodTemplateSpec);
  return t as PodTemplateSpec;
}

const dnsLabelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start " +
  "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const validate = (t: PodTemplateSpec, extra: string[] = []) =>
  validatePodTemplateSpec(t, templatePath, { ...policy, extraVolumeNames: new Set(extra) }).map(errorMessage);

const postgres = `
metadata:
  labels: { app.kubernetes.io/name: postgres, app.kubernetes.io/component: db }
  annotations:
    checksum/config: 3f2a9c
    kubectl.kubernetes.io/default-container: postgres
spec:
  serviceAccountName: postgres
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 60
  priorityClassName: high-priority
  enableServiceLinks: false
  imagePullSecrets: [{ name: regcred }]
  nodeSelector: { kubernetes.io/os: linux }
  securityContext:
    fsGroup: 999
    runAsUser: 999
    runAsGroup: 999
    runAsNonRoot: true
    fsGroupChangePolicy: OnRootMismatch
    seccompProfile: { type: RuntimeDefault }
    supplementalGroups: [1000]
    sysctls: [{ name: net.core.somaxconn, value: "1024" }]
  initContainers:
    - name: init-permissions
      image: busybox:1.36
      command: [sh, -c, "chown -R 999:999 /var/lib/postgresql/data"]
      securityContext: { runAsUser: 0, runAsNonRoot: false }
      volumeMounts: [{ name: data, mountPath: /var/lib/postgresql/data }]
      resources:
        requests: { cpu: 10m, memory: 16Mi }
        limits: { memory: 32Mi }
    - name: metrics-sidecar
      image: quay.io/prometheuscommunity/postgres-exporter:v0.15.0
      restartPolicy: Always
      ports: [{ name: metrics, containerPort: 9187 }]
      env:
        - name: DATA_SOURCE_URI
          value: localhost:5432/postgres?sslmode=disable
      readinessProbe:
        httpGet: { path: /metrics, port: metrics }
  containers:
    - name: postgres
      image: docker.io/library/postgres:16.2-bookworm
      imagePullPolicy: IfNotPresent
      args: ["-c", "config_file=/etc/postgresql/postgresql.conf"]
      ports:
        - { name: postgresql, containerPort: 5432, protocol: TCP }
      envFrom:
        - configMapRef: { name: postgres-env }
        - secretRef: { name: postgres-extra, optional: true }
          prefix: EXTRA_
      env:
        - name: POSTGRES_USER
          valueFrom: { secretKeyRef: { name: postgres-credentials, key: username } }
        - name: POSTGRES_PASSWORD
          valueFrom: { secretKeyRef: { name: postgres-credentials, key: password } }
        - name: POSTGRES_DB
          valueFrom: { configMapKeyRef: { name: postgres-config, key: database, optional: true } }
        - name: PGDATA
          value: /var/lib/postgresql/data/pgdata
        - name: POD_NAME
          valueFrom: { fieldRef: { fieldPath: metadata.name } }
        - name: POD_IP
          valueFrom: { fieldRef: { apiVersion: v1, fieldPath: status.podIP } }
        - name: APP_LABEL
          valueFrom: { fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" } }
        - name: MEMORY_LIMIT
          valueFrom: { resourceFieldRef: { resource: limits.memory, divisor: 1Mi } }
        - name: my.dotted-var
          value: "1"
      resources:
        requests: { cpu: 250m, memory: 512Mi, ephemeral-storage: 1Gi }
        limits: { cpu: "2", memory: 1Gi }
      livenessProbe:
        exec: { command: [sh, -c, "pg_isready -U \\"$POSTGRES_USER\\" -h 127.0.0.1 -p 5432"] }
        initialDelaySeconds: 30
        periodSeconds: 10
        timeoutSeconds: 5
        failureThreshold: 6
      readinessProbe:
        exec: { command: [sh, -c, "pg_isready -h 127.0.0.1"] }
        initialDelaySeconds: 5
        periodSeconds: 5
      startupProbe:
        tcpSocket: { port: postgresql }
        failureThreshold: 30
        periodSeconds: 10
      lifecycle:
        preStop:
          exec: { command: [sh, -c, "pg_ctl stop -m fast"] }
      securityContext:
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities: { drop: [ALL] }
        seccompProfile: { type: RuntimeDefault }
      volumeMounts:
        - { name: data, mountPath: /var/lib/postgresql/data }
        - { name: config, mountPath: /etc/postgresql/postgresql.conf, subPath: postgresql.conf, readOnly: true }
        - { name: dshm, mountPath: /dev/shm }
        - { name: run, mountPath: /var/run/postgresql }
        - { name: tls, mountPath: /etc/postgresql/tls, readOnly: true }
        - { name: kube-api, mountPath: /var/run/secrets/tokens, readOnly: true }
      terminationMessagePolicy: FallbackToLogsOnError
  volumes:
    - name: config
      configMap:
        name: postgres-config
        items: [{ key: postgresql.conf, path: postgresql.conf }]
        defaultMode: 0444
    - name: dshm
      emptyDir: { medium: Memory, sizeLimit: 256Mi }
    - name: run
      emptyDir: {}
    - name: tls
      secret: { secretName: postgres-tls, defaultMode: 0400 }
    - name: kube-api
      projected:
        sources:
          - serviceAccountToken: { path: token, expirationSeconds: 3600, audience: vault }
          - configMap: { name: kube-root-ca.crt, items: [{ key: ca.crt, path: ca.crt }] }
          - downwardAPI:
              items: [{ path: namespace, fieldRef: { fieldPath: metadata.namespace } }]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions:
              - { key: node.kubernetes.io/instance-type, operator: In, values: [m5.xlarge, m6i.xlarge] }
              - { key: node-role.kubernetes.io/control-plane, operator: DoesNotExist }
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 50
          preference:
            matchExpressions: [{ key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1a] }]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          podAffinityTerm:
            topologyKey: kubernetes.io/hostname
            labelSelector:
              matchLabels: { app.kubernetes.io/name: postgres }
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: topology.kubernetes.io/zone
          labelSelector:
            matchExpressions: [{ key: app.kubernetes.io/name, operator: In, values: [postgres] }]
          matchLabelKeys: [pod-template-hash]
  tolerations:
    - { key: dedicated, operator: Equal, value: database, effect: NoSchedule }
    - { key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300 }
    - { operator: Exists }
  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: topology.kubernetes.io/zone
      whenUnsatisfiable: ScheduleAnyway
      labelSelector: { matchLabels: { app.kubernetes.io/name: postgres } }
    - maxSkew: 1
      topologyKey: kubernetes.io/hostname
      whenUnsatisfiable: DoNotSchedule
      minDomains: 2
      nodeAffinityPolicy: Honor
      nodeTaintsPolicy: Ignore
      labelSelector: { matchLabels: { app.kubernetes.io/name: postgres } }
  dnsConfig:
    options: [{ name: ndots, value: "2" }]
  hostAliases:
    - { ip: 10.0.0.10, hostnames: [backup.internal] }
`;

const nginx = `
metadata:
  labels: { app: web }
spec:
  containers:
    - name: nginx
      image: nginx:1.25.4
      ports:
        - { name: http, containerPort: 80 }
        - { name: https, containerPort: 443 }
        - { containerPort: 8125, protocol: UDP }
      readinessProbe:
        httpGet:
          path: /healthz
          port: http
          httpHeaders: [{ name: X-Probe, value: kubelet }]
      livenessProbe:
        grpc: { port: 9090 }
      lifecycle:
        preStop:
          sleep: { seconds: 5 }
      resources:
        requests: { cpu: 100m, memory: 128Mi }
        limits: { cpu: 200m, memory: 128Mi }
      volumeMounts:
        - { name: www, mountPath: /usr/share/nginx/html }
        - { name: cache, mountPath: /var/cache/nginx }
        - { name: scratch, mountPath: /scratch }
      volumeDevices:
        - { name: raw, devicePath: /dev/xvda }
      resizePolicy:
        - { resourceName: cpu, restartPolicy: NotRequired }
  volumes:
    - name: cache
      ephemeral:
        volumeClaimTemplate:
          metadata: { labels: { type: cache } }
          spec:
            accessModes: [ReadWriteOnce]
            storageClassName: fast-ssd
            resources: { requests: { storage: 1Gi } }
    - name: scratch
    - name: host-logs
      hostPath: { path: /var/log, type: Directory }
`;

const agent = `
metadata:
  labels: { app: node-agent }
  creationTimestamp: null
spec:
  hostNetwork: true
  dnsPolicy: ClusterFirstWithHostNet
  shareProcessNamespace: true
  setHostnameAsFQDN: false
  os: { name: linux }
  runtimeClassName: runc
  preemptionPolicy: PreemptLowerPriority
  priority: 1000
  readinessGates: [{ conditionType: example.com/ready }]
  schedulingGates: [{ name: example.com/quota-check }]
  securityContext:
    seLinuxOptions: { level: "s0:c123,c456", type: spc_t }
    appArmorProfile: { type: RuntimeDefault }
    supplementalGroupsPolicy: Merge
  containers:
    - name: agent
      image: registry.example.com/agent@sha256:${'b'.repeat(64)}
      workingDir: /opt/agent
      stdin: true
      tty: true
      terminationMessagePath: /tmp/termination
      ports: [{ name: metrics, containerPort: 9100, hostPort: 9100 }]
      securityContext:
        privileged: false
        capabilities: { add: [NET_ADMIN, SYS_TIME], drop: [ALL] }
        appArmorProfile: { type: Localhost, localhostProfile: k8s-agent }
        seccompProfile: { type: Localhost, localhostProfile: profiles/agent.json }
      startupProbe:
        httpGet: { scheme: HTTPS, host: 127.0.0.1, path: /ready, port: 9100 }
      lifecycle:
        postStart:
          httpGet: { path: /started, port: 9100 }
      resources:
        limits: { cpu: "1", memory: 256Mi, hugepages-2Mi: 64Mi, example.com/nic: "1" }
        requests: { example.com/nic: "1" }
      volumeMounts:
        - { name: podinfo, mountPath: /etc/podinfo }
        - { name: secrets-store, mountPath: /mnt/secrets, readOnly: true, recursiveReadOnly: Enabled }
        - { name: shared, mountPath: /shared, mountPropagation: HostToContainer }
  volumes:
    - name: podinfo
      downwardAPI:
        items:
          - { path: labels, fieldRef: { fieldPath: metadata.labels } }
          - { path: cpu_limit, resourceFieldRef: { containerName: agent, resource: limits.cpu, divisor: 1m } }
    - name: secrets-store
      csi:
        driver: secrets-store.csi.k8s.io
        readOnly: true
        volumeAttributes: { secretProviderClass: vault-db }
        nodePublishSecretRef: { name: csi-creds }
    - name: shared
      nfs: { server: nfs.example.com, path: /exports/shared, readOnly: true }
`;

test('a host-level agent template with rarely used fields validates', () => {
  const t = decode(agent);
  assert.deepEqual(validate(t), []);
  assert.equal(t.spec!.containers[0]!.imagePullPolicy, 'IfNotPresent');
});

test('a full postgres StatefulSet template decodes without unknown fields and validates', () => {
  const t = decode(postgres);
  assert.deepEqual(validate(t, ['data']), []);
});

test('an nginx template with named probe ports, sleep hooks, block devices and an ephemeral volume validates', () => {
  const t = decode(nginx);
  assert.deepEqual(validate(t, ['www', 'raw']), []);
});

test('decoding applies upstream defaults to the template', () => {
  const t = decode(postgres);
  const spec = t.spec!;
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.schedulerName, 'default-scheduler');
  assert.equal(spec.terminationGracePeriodSeconds, 60);
  const pg = spec.containers[0]!;
  assert.equal(pg.terminationMessagePath, '/dev/termination-log');
  assert.equal(pg.terminationMessagePolicy, 'FallbackToLogsOnError');
  assert.deepEqual(pg.livenessProbe, {
    exec: pg.livenessProbe!.exec, initialDelaySeconds: 30, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6, successThreshold: 1,
  });
  assert.equal(pg.env!.find((e) => e.name === 'POD_NAME')!.valueFrom!.fieldRef!.apiVersion, 'v1');
  const sidecar = spec.initContainers![1]!;
  assert.equal(sidecar.imagePullPolicy, 'IfNotPresent');
  assert.deepEqual(sidecar.ports, [{ name: 'metrics', containerPort: 9187, protocol: 'TCP' }]);
  assert.deepEqual(sidecar.readinessProbe!.httpGet, { path: '/metrics', port: 'metrics', scheme: 'HTTP' });
  assert.deepEqual(sidecar.resources, {});
  assert.equal(spec.volumes![3]!.secret!.defaultMode, 0o400);
  const projected = spec.volumes![4]!.projected!;
  assert.equal(projected.defaultMode, 420);

  const web = decode(nginx).spec!;
  assert.deepEqual(web.securityContext, {});
  assert.equal(web.terminationGracePeriodSeconds, 30);
  assert.deepEqual(web.volumes![1], { name: 'scratch', emptyDir: {} });
  assert.deepEqual(web.volumes![2]!.hostPath, { path: '/var/log', type: 'Directory' });
  assert.equal(web.volumes![0]!.ephemeral!.volumeClaimTemplate!.spec.volumeMode, 'Filesystem');
});

/** A minimal valid template to break one rule at a time. */
function minimal(): PodTemplateSpec {
  return decode(`
metadata: { labels: { app: x } }
spec:
  containers:
    - name: app
      image: example.com/app:1.0
      volumeMounts: [{ name: data, mountPath: /data }]
`);
}

function expectErrors(mutate: (t: PodTemplateSpec) => void, expected: string[], extra: string[] = ['data']) {
  const t = minimal();
  mutate(t);
  assert.deepEqual(validate(t, extra), expected);
}

test('the minimal template is valid', () => expectErrors(() => {}, []));

test('container names are required, DNS labels and unique across containers and init containers', () => {
  expectErrors((t) => { t.spec!.containers[0]!.name = ''; }, ['spec.template.spec.containers[0].name: Required value']);
  expectErrors((t) => { t.spec!.containers[0]!.name = 'Web_1'; },
    [`spec.template.spec.containers[0].name: Invalid value: "Web_1": ${dnsLabelMsg}`]);
  expectErrors((t) => {
    const c = t.spec!.containers[0]!;
    t.spec!.containers.push({ ...c, volumeMounts: [] });
    t.spec!.initContainers = [{ ...c, volumeMounts: [] }];
  }, [
    'spec.template.spec.containers[1].name: Duplicate value: "app"',
    'spec.template.spec.initContainers[0].name: Duplicate value: "app"',
  ]);
});

test('an invalid container name is reported once, at its name', () => {
  const t = minimal();
  t.spec!.containers[0]!.name = 'Web_1';
  const errs = validate(t, ['data']);
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /^spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Web_1": a lowercase RFC 1123 label/);
});

test('images are required', () => {
  expectErrors((t) => { delete t.spec!.containers[0]!.image; }, ['spec.template.spec.containers[0].image: Required value']);
  expectErrors((t) => { t.spec!.initContainers = [{ name: 'init', image: '', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }]; },
    ['spec.template.spec.initContainers[0].image: Required value']);
});

test('ports: numbers in range, IANA names unique in the container, known protocols', () => {
  expectErrors((t) => {
    t.spec!.containers[0]!.ports = [
      { containerPort: 0, protocol: 'TCP' },
      { containerPort: 70000, hostPort: 70000, protocol: 'TCP' },
      { name: 'HTTP', containerPort: 80, protocol: 'TCP' },
      { name: 'web', containerPort: 81, protocol: 'TCP' },
      { name: 'web', containerPort: 82, protocol: 'TCP' },
    ];
  }, [
    'spec.template.spec.containers[0].ports[0].containerPort: Required value',
    'spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.template.spec.containers[0].ports[2].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'spec.template.spec.containers[0].ports[2].name: Invalid value: "HTTP": must contain at least one letter (a-z)',
    'spec.template.spec.containers[0].ports[4].name: Duplicate value: "web"',
  ]);
  expectErrors((t) => {
    t.spec!.containers[0]!.ports = [{ containerPort: 80, protocol: 'HTTP' as 'TCP' }];
  }, ['spec.template.spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']);
});

test('host ports may not clash between containers', () => {
  expectErrors((t) => {
    const c = t.spec!.containers[0]!;
    c.ports = [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }];
    t.spec!.containers.push({ ...c, name: 'second', volumeMounts: [] });
  }, ['spec.template.spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"']);
});

test('environment variables: any printable ASCII name but "=", one value source', () => {
  expectErrors((t) => {
    t.spec!.containers[0]!.env = [
      { name: '' },
      { name: 'A=B' },
      { name: 'tab\there' },
      { name: 'OK.name-1 with space', value: 'x' },
      { name: 'BOTH', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'NONE', valueFrom: {} },
      { name: 'BADKEY', valueFrom: { configMapKeyRef: { name: 'cm', key: 'a/b' } } },
      { name: 'FIELD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.containers' } } },
    ];
  }, [
    'spec.template.spec.containers[0].env[0].name: Required value',
    `spec.template.spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
    `spec.template.spec.containers[0].env[2].name: Invalid value: "tab\\there": a valid environment variable name must consist only of printable ASCII characters other than '='`,
    'spec.template.spec.containers[0].env[4].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    'spec.template.spec.containers[0].env[5].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    `spec.template.spec.containers[0].env[6].valueFrom.configMapKeyRef.key: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    'spec.template.spec.containers[0].env[7].valueFrom.fieldRef.fieldPath: Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers',
  ]);
});

test('volume mounts must name a volume (or a claim template) and use distinct mount paths', () => {
  expectErrors((t) => {
    t.spec!.containers[0]!.volumeMounts!.push({ name: 'missing', mountPath: '/data' }, { name: 'data', mountPath: '' });
  }, [
    'spec.template.spec.containers[0].volumeMounts[1].name: Not found: "missing"',
    'spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
    'spec.template.spec.containers[0].volumeMounts[2].mountPath: Required value',
  ]);
  // Without the StatefulSet's claim templates the claim is unknown.
  expectErrors(() => {}, ['spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"'], []);
  expectErrors((t) => { t.spec!.containers[0]!.volumeMounts![0]!.subPath = '../etc'; },
    [`spec.template.spec.containers[0].volumeMounts.subPath: Invalid value: "../etc": must not contain '..'`]);
});

test('volumes: names required, DNS labels, unique, exactly one source', () => {
  expectErrors((t) => {
    t.spec!.volumes = [
      { name: 'a', emptyDir: {}, secret: { secretName: 's' } },
      { name: 'b', emptyDir: {} },
      { name: 'b', emptyDir: {} },
      { name: 'Bad_Name', emptyDir: {} },
      { name: '', emptyDir: {} },
      { name: 'c', configMap: {} },
      { name: 'd', persistentVolumeClaim: { claimName: '' } },
      { name: 'e', hostPath: { path: '/x/../y' } },
      { name: 'f', secret: { secretName: 'x', defaultMode: 0o1777 } },
    ];
  }, [
    'spec.template.spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
    'spec.template.spec.volumes[2].name: Duplicate value: "b"',
    `spec.template.spec.volumes[3].name: Invalid value: "Bad_Name": ${dnsLabelMsg}`,
    'spec.template.spec.volumes[4].name: Required value',
    'spec.template.spec.volumes[5].configMap.name: Required value',
    'spec.template.spec.volumes[6].persistentVolumeClaim.claimName: Required value',
    `spec.template.spec.volumes[7].hostPath.path: Invalid value: "/x/../y": must not contain '..'`,
    'spec.template.spec.volumes[8].secret.defaultMode: Invalid value: 1023: must be a number between 0 and 0777 (octal), both inclusive',
  ]);
});

test('a volume that names no source is refused before defaulting', () => {
  const t = minimal();
  t.spec!.volumes = [{ name: 'v' }];
  assert.deepEqual(validate(t, ['data']), ['spec.template.spec.volumes[0]: Required value: must specify a volume type']);
});

test('restart and DNS policies, grace period and active deadline', () => {
  expectErrors((t) => {
    const spec = t.spec! as Record<string, unknown>;
    spec.restartPolicy = 'Sometimes';
    spec.dnsPolicy = 'Cluster';
    spec.terminationGracePeriodSeconds = -1;
    spec.activeDeadlineSeconds = 0;
  }, [
    'spec.template.spec.terminationGracePeriodSeconds: Invalid value: -1: must be greater than or equal to 0',
    'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    'spec.template.spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    'spec.template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
  ]);
  expectErrors((t) => { t.spec!.dnsPolicy = 'None'; },
    ['spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
});

test('probes: one handler, non-negative timings, success threshold 1 for liveness', () => {
  expectErrors((t) => {
    const c = t.spec!.containers[0]!;
    c.livenessProbe = { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, exec: { command: ['true'] }, successThreshold: 2, periodSeconds: -5 };
    c.readinessProbe = { tcpSocket: { port: 99999 }, terminationGracePeriodSeconds: 10 };
    c.startupProbe = { periodSeconds: 10 };
  }, [
    'spec.template.spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
    'spec.template.spec.containers[0].livenessProbe.periodSeconds: Invalid value: -5: must be greater than or equal to 0',
    'spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    'spec.template.spec.containers[0].readinessProbe.tcpSocket.port: Invalid value: 99999: must be between 1 and 65535, inclusive',
    'spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes',
    'spec.template.spec.containers[0].startupProbe: Required value: must specify a handler type',
  ]);
});

test('init containers may only carry probes and hooks when they are restartable sidecars', () => {
  expectErrors((t) => {
    t.spec!.initContainers = [{
      name: 'migrate', image: 'app:1', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent',
      livenessProbe: { exec: { command: ['true'] }, successThreshold: 1 },
      lifecycle: { preStop: { exec: { command: ['true'] } } },
    }, {
      name: 'sidecar', image: 'app:1', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', restartPolicy: 'Never',
    }];
    t.spec!.containers[0]!.restartPolicy = 'Always';
  }, [
    'spec.template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
    'spec.template.spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
    'spec.template.spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    'spec.template.spec.initContainers[1].restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
});

test('resource requests may not exceed limits; extended resources must match them', () => {
  expectErrors((t) => {
    t.spec!.containers[0]!.resources = {
      requests: { cpu: '1', memory: '2Gi', 'example.com/gpu': '1' },
      limits: { cpu: '500m', memory: '1Gi', 'example.com/gpu': '2' },
    };
  }, [
    'spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
    'spec.template.spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
    'spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2',
  ]);
  expectErrors((t) => { t.spec!.containers[0]!.resources = { requests: { cpus: '1', memory: '-1' } }; }, [
    'spec.template.spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified',
    'spec.template.spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource for containers',
    'spec.template.spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
});

test('tolerations, topology spread constraints and affinity terms', () => {
  expectErrors((t) => {
    const spec = t.spec!;
    spec.tolerations = [
      { key: 'a', operator: 'Exists', value: 'x' },
      { key: 'b', operator: 'Equal', value: 'y', effect: 'NoSchedule', tolerationSeconds: 10 },
      { operator: 'Equal', value: 'z' },
    ];
    spec.topologySpreadConstraints = [
      { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      { maxSkew: 1, topologyKey: 'host', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
    ];
    spec.affinity = {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: '' } }],
      },
    };
  }, [
    'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
    'spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
    'spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty',
    `spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "": name part must be non-empty`,
    'spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    'spec.template.spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
    'spec.template.spec.topologySpreadConstraints[2].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    `spec.template.spec.tolerations[0].operator: Invalid value: "x": value must be empty when \`operator\` is 'Exists'`,
    `spec.template.spec.tolerations[1].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
    'spec.template.spec.tolerations[2].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
  ]);
});

test('template labels are checked at upstream paths and ephemeral containers are refused', () => {
  expectErrors((t) => {
    t.metadata!.labels = { 'bad key!': 'v' };
    t.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox' }];
  }, [
    `spec.template.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
  ]);
});

test('security contexts: IDs in range, seccomp localhost profiles, privilege escalation, privileged disallowed by cluster policy', () => {
  expectErrors((t) => {
    t.spec!.securityContext = { runAsUser: -1, seccompProfile: { type: 'Localhost' } };
    t.spec!.containers[0]!.securityContext = {
      privileged: true, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x.json' },
    };
  }, [
    'spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
    'spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: {"type":"RuntimeDefault","localhostProfile":"x.json"}: can only be set when seccomp type is Localhost',
    'spec.template.spec.containers[0].securityContext: Invalid value: {"privileged":true,"allowPrivilegeEscalation":false,"seccompProfile":{"type":"RuntimeDefault","localhostProfile":"x.json"}}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
    'spec.template.spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
    'spec.template.spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
  ]);
});

test('an ephemeral volume claim template is validated as a claim', () => {
  expectErrors((t) => {
    t.spec!.volumes = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { resources: {} } } } }];
  }, [
    'spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
    'spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
  ]);
});

test('a template without spec reports its missing containers', () => {
  assert.deepEqual(validatePodTemplateSpec({}, templatePath, policy).map(errorMessage),
    ['spec.template.spec.containers: Required value']);
});
