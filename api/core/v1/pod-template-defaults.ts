// Defaults of a pod template that a JSON Schema `default` cannot express: those that depend on
// another field (the image's tag, whether a volume names a source) and those upstream also
// applies to a present zero value ("" or 0), which a schema default never replaces. Defaults
// for absent fields with a fixed value live in the schemas and are applied by validation.
//
// The function is written to survive input that has not been validated yet, so it may run
// before or after schema validation.
import type { PodSpec, PodTemplateSpec } from './pod-template.js';
import { DefaultSchedulerName } from './pod-template.js';
import { TerminationMessagePathDefault } from './container.js';
import { VolumeSourceNames } from './volume.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
/** Upstream's "unset" for a string or a number: absent, empty, or zero. */
const unset = (v: unknown): boolean => v === undefined || v === null || v === '' || v === 0;

/** Sets the defaults of a pod template that depend on other fields or replace zero values. */
export function defaultPodTemplateSpec(t: PodTemplateSpec): void {
  if (isObj(t) && isObj(t.spec)) defaultPodSpec(t.spec);
}

/** Sets the defaults of a PodSpec that depend on other fields or replace zero values. */
export function defaultPodSpec(spec: PodSpec): void {
  const s: Obj = spec;
  if (unset(s.dnsPolicy)) s.dnsPolicy = 'ClusterFirst';
  if (unset(s.restartPolicy)) s.restartPolicy = 'Always';
  if (unset(s.schedulerName)) s.schedulerName = DefaultSchedulerName;
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objects(s[key])) defaultContainer(c);
  }
  for (const v of objects(s.volumes)) defaultVolume(v);
}

function defaultContainer(c: Obj): void {
  if (unset(c.imagePullPolicy)) c.imagePullPolicy = pullPolicyFor(c.image);
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = TerminationMessagePathDefault;
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const p of objects(c.ports)) if (unset(p.protocol)) p.protocol = 'TCP';
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (isObj(c[key])) defaultProbe(c[key]);
  }
  if (isObj(c.lifecycle)) {
    for (const key of ['postStart', 'preStop']) {
      const handler = c.lifecycle[key];
      if (isObj(handler) && isObj(handler.httpGet)) defaultHTTPGet(handler.httpGet);
    }
  }
  for (const e of objects(c.env)) {
    const from = e.valueFrom;
    if (isObj(from) && isObj(from.fieldRef)) defaultFieldRef(from.fieldRef);
  }
}

function defaultProbe(p: Obj): void {
  if (unset(p.timeoutSeconds)) p.timeoutSeconds = 1;
  if (unset(p.periodSeconds)) p.periodSeconds = 10;
  if (unset(p.successThreshold)) p.successThreshold = 1;
  if (unset(p.failureThreshold)) p.failureThreshold = 3;
  if (isObj(p.httpGet)) defaultHTTPGet(p.httpGet);
}

function defaultHTTPGet(h: Obj): void {
  if (unset(h.path)) h.path = '/';
  if (unset(h.scheme)) h.scheme = 'HTTP';
}

function defaultFieldRef(f: Obj): void {
  if (unset(f.apiVersion)) f.apiVersion = 'v1';
}

function defaultVolume(v: Obj): void {
  // A volume naming no source is an emptyDir (deprecated upstream behaviour, still applied).
  if (!VolumeSourceNames.some((name) => v[name] !== undefined && v[name] !== null)) v.emptyDir = {};
  if (isObj(v.image) && unset(v.image.pullPolicy)) v.image.pullPolicy = pullPolicyFor(v.image.reference);
  for (const file of objects(isObj(v.downwardAPI) ? v.downwardAPI.items : undefined)) {
    if (isObj(file.fieldRef)) defaultFieldRef(file.fieldRef);
  }
  for (const source of objects(isObj(v.projected) ? v.projected.sources : undefined)) {
    const downward = source.downwardAPI;
    for (const file of objects(isObj(downward) ? downward.items : undefined)) {
      if (isObj(file.fieldRef)) defaultFieldRef(file.fieldRef);
    }
  }
}

/** Always for an image tagged ':latest' or not tagged at all, IfNotPresent otherwise. */
export function pullPolicyFor(image: unknown): 'Always' | 'IfNotPresent' {
  return typeof image === 'string' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

// The grammar of an image reference (distribution/reference): [domain[:port]/]path[:tag][@digest].
const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const domainLabel = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `(?:${domainLabel}(?:\\.${domainLabel})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const referenceRe = new RegExp(
  `^(?:(${domain})/)?(${component}(?:/${component})*)(?::([\\w][\\w.-]{0,127}))?` +
    '(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$',
);

/**
 * The tag an image reference resolves to: its own tag, "latest" when it has neither tag nor
 * digest, "" when it has only a digest or does not parse (upstream then pulls IfNotPresent).
 */
export function imageTag(image: string): string {
  const m = referenceRe.exec(image);
  if (!m) return '';
  const [, host, path, tag, digest] = m;
  const name = host === undefined ? path! : `${host}/${path!}`;
  if (name.length > 255) return '';
  if (tag !== undefined) return tag;
  return digest !== undefined ? '' : 'latest';
}
