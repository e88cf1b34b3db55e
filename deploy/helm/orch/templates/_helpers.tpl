{{/* The chart's name, or nameOverride. */}}
{{- define "orch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every object's name: the release name, with the chart's name appended unless it already holds it. Short enough that "-controller-manager" and a StatefulSet's pod suffix still fit in 63 characters. */}}
{{- define "orch.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "orch.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries; pass (dict "root" $ "component" "etcd"). */}}
{{- define "orch.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{ include "orch.selectorLabels" . }}
{{- end -}}

{{/* The labels a component's selector matches; pass (dict "root" $ "component" "etcd"). */}}
{{- define "orch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "orch.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* The control plane image. */}}
{{- define "orch.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Object names. */}}
{{- define "orch.etcd.name" -}}{{ include "orch.fullname" . }}-etcd{{- end -}}
{{- define "orch.etcd.headless" -}}{{ include "orch.fullname" . }}-etcd-headless{{- end -}}
{{- define "orch.apiserver.name" -}}{{ include "orch.fullname" . }}-apiserver{{- end -}}
{{- define "orch.controllerManager.name" -}}{{ include "orch.fullname" . }}-controller-manager{{- end -}}

{{/* The domain the etcd members' names end in: <headless>.<ns>.svc.<clusterDomain>. */}}
{{- define "orch.etcd.domain" -}}
{{- printf "%s.%s.svc.%s" (include "orch.etcd.headless" .) .Release.Namespace .Values.clusterDomain -}}
{{- end -}}

{{/* --initial-cluster: every member's name and peer URL. */}}
{{- define "orch.etcd.initialCluster" -}}
{{- $name := include "orch.etcd.name" . -}}
{{- $domain := include "orch.etcd.domain" . -}}
{{- $members := list -}}
{{- range $i := until (int .Values.etcd.replicas) -}}
{{- $members = append $members (printf "%s-%d=https://%s-%d.%s:2380" $name $i $name $i $domain) -}}
{{- end -}}
{{- join "," $members -}}
{{- end -}}

{{/* --etcd-servers: every member's client URL, so that the API server fails over between them. */}}
{{- define "orch.etcd.servers" -}}
{{- $name := include "orch.etcd.name" . -}}
{{- $domain := include "orch.etcd.domain" . -}}
{{- $members := list -}}
{{- range $i := until (int .Values.etcd.replicas) -}}
{{- $members = append $members (printf "https://%s-%d.%s:2379" $name $i $domain) -}}
{{- end -}}
{{- join "," $members -}}
{{- end -}}

{{/* The names the API server Service answers to, which its serving certificate covers. */}}
{{- define "orch.apiserver.serviceNames" -}}
{{- $svc := include "orch.apiserver.name" . -}}
{{- $ns := .Release.Namespace -}}
{{- list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .Values.clusterDomain) | toJson -}}
{{- end -}}

{{/* The address in-cluster clients (the controller manager, the admin kubeconfig) reach the API server at. */}}
{{- define "orch.apiserver.url" -}}
{{- printf "https://%s.%s.svc:%d" (include "orch.apiserver.name" .) .Release.Namespace (int .Values.apiServer.service.port) -}}
{{- end -}}

{{/* The Secret holding one certificate: the operator's when given, else the chart's; pass (dict "root" $ "key" "etcdServer" "suffix" "etcd-server"). */}}
{{- define "orch.secretName" -}}
{{- $given := get .root.Values.certificates.existingSecrets .key -}}
{{- if $given -}}{{ $given }}{{- else -}}{{ include "orch.fullname" .root }}-{{ .suffix }}{{- end -}}
{{- end -}}

{{/*
A container's args: the flags rendered by a component's template (one "- --name=value" line each,
comment lines kept), without those extraArgs names, then extraArgs sorted by name; every flag is
quoted, so a value ending in ":" or holding " #" stays a string. Pass (dict "args" text "extra" map).
*/}}
{{- define "orch.withExtraArgs" -}}
{{- $extra := .extra -}}
{{- $out := list -}}
{{- range $line := splitList "\n" .args -}}
{{- $arg := regexReplaceAll "^- " $line "" -}}
{{- if hasPrefix "- " $line -}}
{{- if not (hasKey $extra (regexReplaceAll "^--([^=]+)(=.*)?$" $arg "${1}")) -}}
{{- $out = append $out (printf "- %s" ($arg | quote)) -}}
{{- end -}}
{{- else if trim $line -}}
{{- $out = append $out $line -}}
{{- end -}}
{{- end -}}
{{- range $name, $value := $extra -}}
{{- $out = append $out (printf "- %s" (printf "--%s=%v" $name $value | quote)) -}}
{{- end -}}
{{- join "\n" $out -}}
{{- end -}}

{{/* The Secret with --token-auth-file's tokens.csv: the operator's, else the chart's admin token (generated certificates only); empty for none. */}}
{{- define "orch.tokenSecret" -}}
{{- if .Values.apiServer.authentication.tokenAuthSecret -}}
{{- .Values.apiServer.authentication.tokenAuthSecret -}}
{{- else if .Values.certificates.generate -}}
{{- include "orch.fullname" . }}-admin-kubeconfig
{{- end -}}
{{- end -}}

{{/* Pod anti-affinity spreading a component's pods; pass (dict "root" $ "component" "etcd" "mode" "preferred" "topologyKey" "..."). */}}
{{- define "orch.antiAffinity" -}}
podAntiAffinity:
{{- if eq .mode "required" }}
  requiredDuringSchedulingIgnoredDuringExecution:
  - topologyKey: {{ .topologyKey }}
    labelSelector:
      matchLabels:
        {{- include "orch.selectorLabels" (dict "root" .root "component" .component) | nindent 8 }}
{{- else }}
  preferredDuringSchedulingIgnoredDuringExecution:
  - weight: 100
    podAffinityTerm:
      topologyKey: {{ .topologyKey }}
      labelSelector:
        matchLabels:
          {{- include "orch.selectorLabels" (dict "root" .root "component" .component) | nindent 10 }}
{{- end }}
{{- end -}}

{{/* A kubeconfig for one user; pass (dict "server" url "ca" pem "user" name) with "cert" and "key" (PEM) or "token". */}}
{{- define "orch.kubeconfig" -}}
apiVersion: v1
kind: Config
clusters:
- name: orch
  cluster:
    server: {{ .server }}
    certificate-authority-data: {{ .ca | b64enc }}
users:
- name: {{ .user }}
  user:
    {{- if .token }}
    token: {{ .token }}
    {{- else }}
    client-certificate-data: {{ .cert | b64enc }}
    client-key-data: {{ .key | b64enc }}
    {{- end }}
contexts:
- name: {{ .user }}@orch
  context:
    cluster: orch
    user: {{ .user }}
current-context: {{ .user }}@orch
{{- end -}}

{{/* Keys are ECDSA P-256: small, and generated in a moment where RSA takes seconds a key. */}}

{{/* Puts into .cas[.suffix] the CA kept in .kept[.suffix] (tls.crt, tls.key), or a new one that .kept then holds too. */}}
{{- define "orch.gen.ca" -}}
{{- $prev := get .kept .suffix -}}
{{- if $prev -}}
{{- $_ := set .cas .suffix (buildCustomCert (get $prev "tls.crt") (get $prev "tls.key")) -}}
{{- else -}}
{{- $ca := genCAWithKey .cn (int .days) (genPrivateKey "ecdsa") -}}
{{- $_ := set .cas .suffix $ca -}}
{{- $_ := set .kept .suffix (dict "tls.crt" ($ca.Cert | b64enc) "tls.key" ($ca.Key | b64enc)) -}}
{{- end -}}
{{- end -}}

{{/* Puts into .kept[.suffix] a certificate signed by .ca (tls.crt, tls.key, ca.crt) unless one is kept there already. */}}
{{- define "orch.gen.leaf" -}}
{{- if not (hasKey .kept .suffix) -}}
{{- $c := genSignedCertWithKey .cn .ips .sans (int .days) .ca (genPrivateKey "ecdsa") -}}
{{- $_ := set .kept .suffix (dict "tls.crt" ($c.Cert | b64enc) "tls.key" ($c.Key | b64enc) "ca.crt" (.ca.Cert | b64enc)) -}}
{{- end -}}
{{- end -}}

{{/* A map as key=value pairs joined by commas, sorted by key (--runtime-config); pass the map. */}}
{{- define "orch.keyValues" -}}
{{- $pairs := list -}}
{{- range $k, $v := . -}}
{{- $pairs = append $pairs (printf "%s=%v" $k $v) -}}
{{- end -}}
{{- join "," $pairs -}}
{{- end -}}

{{/* A pod's placement and security: pull secrets, priority, anti-affinity, node selector, tolerations, a non-root user, no token of the hosting cluster (nothing here calls its API); pass (dict "root" $ "component" "etcd" "values" .Values.etcd). */}}
{{- define "orch.podPlacement" -}}
{{- $v := .values -}}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
automountServiceAccountToken: false
affinity:
  {{- include "orch.antiAffinity" (dict "root" .root "component" .component "mode" $v.antiAffinity "topologyKey" $v.antiAffinityTopologyKey) | nindent 2 }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  runAsNonRoot: true
  runAsUser: 65532
  runAsGroup: 65532
  fsGroup: 65532
  seccompProfile:
    type: RuntimeDefault
{{- end -}}

{{/* A component's PodDisruptionBudget when enabled; pass (dict "root" $ "component" "etcd" "name" name "values" .Values.etcd). */}}
{{- define "orch.podDisruptionBudget" -}}
{{- if .values.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ .name }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "orch.labels" (dict "root" .root "component" .component) | nindent 4 }}
spec:
  maxUnavailable: {{ .values.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "orch.selectorLabels" (dict "root" .root "component" .component) | nindent 6 }}
{{- end }}
{{- end -}}

{{/* A container's security context: no privilege, a read-only root file system, no capability. */}}
{{- define "orch.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
{{- end -}}
