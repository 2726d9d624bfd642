{{- define "ferry.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "ferry.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "ferry.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
DATABASE_POOL_SIZE for the most pods that can run at once (maxReplicas, or replicaCount, plus the
rolling update's 25 % surge rounded up), each holding the pool + 1 (LISTEN), within
database.maxConnections - database.reservedConnections (values.yaml, docs/deployment.md).
*/}}
{{- define "ferry.databasePoolSize" -}}
{{- $pods := int .Values.replicaCount -}}
{{- if .Values.autoscaling.enabled -}}{{- $pods = int .Values.autoscaling.maxReplicas -}}{{- end -}}
{{- $peak := add $pods (div (add $pods 3) 4) -}}
{{- $share := sub (int .Values.database.maxConnections) (int .Values.database.reservedConnections) -}}
{{- $size := sub (div $share $peak) 1 -}}
{{- if lt (int $size) 1 -}}
{{- fail (printf "database.maxConnections - database.reservedConnections (%d) leaves under 2 connections for each of %d pods (maxReplicas plus the rolling update's surge): raise database.maxConnections or lower maxReplicas" $share $peak) -}}
{{- end -}}
{{- $size -}}
{{- end -}}

{{- define "ferry.secretName" -}}
{{- default (include "ferry.fullname" .) .Values.existingSecret -}}
{{- end -}}
