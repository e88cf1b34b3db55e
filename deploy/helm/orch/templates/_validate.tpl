{{/* Checks across values that the schema cannot express; each failure names the value to set. */}}
{{- define "orch.validate" -}}
{{- if not .Values.certificates.generate -}}
{{- range $key, $secret := .Values.certificates.existingSecrets -}}
{{- if not $secret -}}
{{- fail (printf "certificates.generate is false, so certificates.existingSecrets.%s must name a Secret (see values.yaml for the keys it holds)" $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $a := .Values.apiServer -}}
{{- if and (has "Webhook" $a.authorization.modes) (not $a.authorization.webhook.secret) -}}
{{- fail "apiServer.authorization.modes has Webhook, so apiServer.authorization.webhook.secret must name the Secret holding its kubeconfig (key: config)" -}}
{{- end -}}
{{- if and $a.authentication.oidc.enabled (not (and $a.authentication.oidc.issuerURL $a.authentication.oidc.clientID)) -}}
{{- fail "apiServer.authentication.oidc.enabled is true, so apiServer.authentication.oidc.issuerURL and apiServer.authentication.oidc.clientID must be set" -}}
{{- end -}}
{{- if and $a.authentication.webhook.enabled (not $a.authentication.webhook.secret) -}}
{{- fail "apiServer.authentication.webhook.enabled is true, so apiServer.authentication.webhook.secret must name the Secret holding its kubeconfig (key: config)" -}}
{{- end -}}
{{- if and (gt (int .Values.controllerManager.replicas) 1) (not .Values.controllerManager.leaderElection.enabled) -}}
{{- fail "controllerManager.replicas is above 1, so controllerManager.leaderElection.enabled must be true: without a leader every replica would run every controller" -}}
{{- end -}}
{{- end -}}
