// An independent decoder for the tests: a subset of upstream's generated.proto messages, written
// out with their upstream field numbers (proto2, everything optional) and parsed by protobufjs.
// Messages list only the fields the tests use; a real upstream decoder skips the others alike.
import protobuf from 'protobufjs';

const source = `
syntax = "proto2";
package upstream;

message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
message RawExtension { optional bytes raw = 1; }

message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
message Quantity { optional string string = 1; }
message FieldsV1 { optional bytes Raw = 1; }

message OwnerReference {
  optional string kind = 1; optional string name = 3; optional string uid = 4; optional string apiVersion = 5;
  optional bool controller = 6; optional bool blockOwnerDeletion = 7;
}
message ManagedFieldsEntry {
  optional string manager = 1; optional string operation = 2; optional string apiVersion = 3; optional Time time = 4;
  optional string fieldsType = 6; optional FieldsV1 fieldsV1 = 7; optional string subresource = 8;
}
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13; repeated string finalizers = 14; repeated ManagedFieldsEntry managedFields = 17;
}
message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelector { map<string, string> matchLabels = 1; repeated LabelSelectorRequirement matchExpressions = 2; }

message StatusCause { optional string reason = 1; optional string message = 2; optional string field = 3; }
message StatusDetails {
  optional string name = 1; optional string group = 2; optional string kind = 3; repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5; optional string uid = 6;
}
message Status {
  optional ListMeta metadata = 1; optional string status = 2; optional string message = 3; optional string reason = 4;
  optional StatusDetails details = 5; optional int32 code = 6;
}
message WatchEvent { optional string type = 1; optional RawExtension object = 2; }

message ConfigMap {
  optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4;
}
message ConfigMapList { optional ListMeta metadata = 1; repeated ConfigMap items = 2; }
message Secret {
  optional ObjectMeta metadata = 1; map<string, bytes> data = 2; optional string type = 3; map<string, string> stringData = 4;
  optional bool immutable = 5;
}
message ResourceQuotaSpec { map<string, Quantity> hard = 1; repeated string scopes = 2; }
message ResourceQuotaStatus { map<string, Quantity> hard = 1; map<string, Quantity> used = 2; }
message ResourceQuota { optional ObjectMeta metadata = 1; optional ResourceQuotaSpec spec = 2; optional ResourceQuotaStatus status = 3; }

message PodDisruptionBudgetSpec {
  optional IntOrString minAvailable = 1; optional LabelSelector selector = 2; optional IntOrString maxUnavailable = 3;
  optional string unhealthyPodEvictionPolicy = 4;
}
message PodDisruptionBudgetStatus {
  optional int64 observedGeneration = 1; map<string, Time> disruptedPods = 2; optional int32 disruptionsAllowed = 3;
  optional int32 currentHealthy = 4; optional int32 desiredHealthy = 5; optional int32 expectedPods = 6;
}
message PodDisruptionBudget {
  optional ObjectMeta metadata = 1; optional PodDisruptionBudgetSpec spec = 2; optional PodDisruptionBudgetStatus status = 3;
}

message ExecAction { repeated string command = 1; }
message HTTPHeader { optional string name = 1; optional string value = 2; }
message HTTPGetAction {
  optional string path = 1; optional IntOrString port = 2; optional string host = 3; optional string scheme = 4;
  repeated HTTPHeader httpHeaders = 5;
}
message TCPSocketAction { optional IntOrString port = 1; optional string host = 2; }
message ProbeHandler { optional ExecAction exec = 1; optional HTTPGetAction httpGet = 2; optional TCPSocketAction tcpSocket = 3; }
message Probe {
  optional ProbeHandler handler = 1; optional int32 initialDelaySeconds = 2; optional int32 timeoutSeconds = 3;
  optional int32 periodSeconds = 4; optional int32 successThreshold = 5; optional int32 failureThreshold = 6;
  optional int64 terminationGracePeriodSeconds = 7;
}
message LocalObjectReference { optional string name = 1; }
message KeyToPath { optional string key = 1; optional string path = 2; optional int32 mode = 3; }
message ConfigMapVolumeSource {
  optional LocalObjectReference localObjectReference = 1; repeated KeyToPath items = 2; optional int32 defaultMode = 3;
  optional bool optional = 4;
}
message EmptyDirVolumeSource { optional string medium = 1; optional Quantity sizeLimit = 2; }
message VolumeSource { optional EmptyDirVolumeSource emptyDir = 2; optional ConfigMapVolumeSource configMap = 19; }
message Volume { optional string name = 1; optional VolumeSource volumeSource = 2; }
message ConfigMapKeySelector { optional LocalObjectReference localObjectReference = 1; optional string key = 2; optional bool optional = 3; }
message EnvVarSource { optional ConfigMapKeySelector configMapKeyRef = 3; }
message EnvVar { optional string name = 1; optional string value = 2; optional EnvVarSource valueFrom = 3; }
message ResourceRequirements { map<string, Quantity> limits = 1; map<string, Quantity> requests = 2; }
message Container {
  optional string name = 1; optional string image = 2; repeated EnvVar env = 7; optional ResourceRequirements resources = 8;
  optional Probe livenessProbe = 10; optional Probe readinessProbe = 11;
}
message PodSecurityContext { repeated int64 supplementalGroups = 4; }
message PodSpec { repeated Volume volumes = 1; repeated Container containers = 2; optional PodSecurityContext securityContext = 14; }
message PodTemplateSpec { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; }
message StatefulSetSpec {
  optional int32 replicas = 1; optional LabelSelector selector = 2; optional PodTemplateSpec template = 3; optional string serviceName = 5;
}
message StatefulSet { optional ObjectMeta metadata = 1; optional StatefulSetSpec spec = 2; }
message ObjectReference { optional string kind = 1; optional string namespace = 2; optional string name = 3; optional string uid = 4; }
message EndpointConditions { optional bool ready = 1; optional bool serving = 2; optional bool terminating = 3; }
message ForZone { optional string name = 1; }
message EndpointHints { repeated ForZone forZones = 1; }
message Endpoint {
  repeated string addresses = 1; optional EndpointConditions conditions = 2; optional string hostname = 3; optional ObjectReference targetRef = 4;
  map<string, string> deprecatedTopology = 5; optional string nodeName = 6; optional string zone = 7; optional EndpointHints hints = 8;
}
message EndpointPort { optional string name = 1; optional string protocol = 2; optional int32 port = 3; optional string appProtocol = 4; }
message EndpointSlice { optional ObjectMeta metadata = 1; repeated Endpoint endpoints = 2; repeated EndpointPort ports = 3; optional string addressType = 4; }
`;

const root = protobuf.parse(source, { keepCase: true }).root;

/** The upstream-numbered message type `name` (e.g. "ConfigMap", "Unknown"). */
export function upstreamType(name: string): protobuf.Type {
  return root.lookupType(`upstream.${name}`);
}

/** Decodes `bytes` as upstream message `name` into a plain object (int64 as numbers, bytes as base64, no defaults). */
export function decodeUpstream(name: string, bytes: Uint8Array): Record<string, unknown> {
  const type = upstreamType(name);
  return type.toObject(type.decode(bytes), { longs: Number, bytes: String, defaults: false }) as Record<string, unknown>;
}

/** Encodes a plain object (proto field names, int64 as numbers, bytes as base64) as upstream message `name`. */
export function encodeUpstream(name: string, value: Record<string, unknown>): Uint8Array {
  const type = upstreamType(name);
  return type.encode(type.fromObject(value)).finish();
}
