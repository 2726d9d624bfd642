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

{{- define "ferry.secretName" -}}
{{- default (include "ferry.fullname" .) .Values.existingSecret -}}
{{- end -}}

{{/*
The most Ferry pods that can run at once: the autoscaler's maximum (replicaCount without it), plus
the pods a rolling update adds on top (maxSurge, a count or a percentage rounded up, as Kubernetes
rounds it).
*/}}
{{- define "ferry.maxPods" -}}
{{- $replicas := int (ternary .Values.autoscaling.maxReplicas .Values.replicaCount .Values.autoscaling.enabled) -}}
{{- $surge := .Values.rollingUpdate.maxSurge -}}
{{- if and (kindIs "string" $surge) (hasSuffix "%" $surge) -}}
{{- $percent := int (trimSuffix "%" $surge) -}}
{{- $surge = div (add (mul $percent $replicas) 99) 100 -}}
{{- end -}}
{{- add $replicas (int $surge) -}}
{{- end -}}

{{/*
PostgreSQL connections one pod holds at most with a pool size of N: its pool of N
(packages/server/src/storage/database.ts) and one LISTEN connection for cache invalidation.
*/}}
{{- define "ferry.connectionsPerPod" -}}
{{- add (int .) 1 -}}
{{- end -}}

{{/*
DATABASE_POOL_SIZE: database.poolSize when set, else the largest pool with which every pod that can
run at once (ferry.maxPods) fits database.connectionBudget. Refuses to render when the pods cannot
all fit: PostgreSQL would refuse the connections of the last pods to start.
*/}}
{{- define "ferry.poolSize" -}}
{{- $pods := int (include "ferry.maxPods" .) -}}
{{- $budget := int .Values.database.connectionBudget -}}
{{- $pool := 0 -}}
{{- if .Values.database.poolSize -}}
{{- $pool = int .Values.database.poolSize -}}
{{- else -}}
{{- $pool = sub (div $budget $pods) 1 -}}
{{- end -}}
{{- $total := mul $pods (int (include "ferry.connectionsPerPod" $pool)) -}}
{{- if lt $pool 1 -}}
{{- fail (printf "database.connectionBudget %d cannot give %d pods (maxReplicas plus maxSurge) a pool of 1 (2 connections each): raise it, or lower autoscaling.maxReplicas, or put PgBouncer in front (docs/deployment.md)" $budget $pods) -}}
{{- end -}}
{{- if gt $total $budget -}}
{{- fail (printf "database.poolSize %d: %d pods (maxReplicas plus maxSurge) x %d connections = %d, over database.connectionBudget %d" $pool $pods (int (include "ferry.connectionsPerPod" $pool)) $total $budget) -}}
{{- end -}}
{{- $pool -}}
{{- end -}}
