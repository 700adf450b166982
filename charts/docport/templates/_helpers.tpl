{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "docport.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "docport.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "docport.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "docport.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "docport.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "docport.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: call with (dict "root" $ "component" "api"). */}}
{{- define "docport.selectorLabels" -}}
app.kubernetes.io/name: {{ include "docport.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "docport.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "docport.exportNamespace" -}}
{{- default .Release.Namespace .Values.exportNamespace -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY. */}}
{{- define "docport.secretName" -}}
{{- default (printf "%s-credentials" (include "docport.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{- define "docport.serviceAccountName" -}}
{{- printf "%s-%s" (include "docport.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Restricted Pod Security for every Docport container. */}}
{{- define "docport.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "docport.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* policy/v1 from Kubernetes 1.21; policy/v1beta1 before. */}}
{{- define "docport.pdbApiVersion" -}}
{{- if .Capabilities.APIVersions.Has "policy/v1" -}}policy/v1{{- else -}}policy/v1beta1{{- end -}}
{{- end -}}

{{/* Environment shared by the API and the controller; secrets come from the Secret. */}}
{{- define "docport.commonEnv" -}}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: EXPORT_NAMESPACE
  value: {{ include "docport.exportNamespace" . | quote }}
- name: PRESIGN_TTL_SECONDS
  value: {{ .Values.presignTtlSeconds | quote }}
- name: S3_BUCKET
  value: {{ required "s3.bucket is required" .Values.s3.bucket | quote }}
- name: S3_REGION
  value: {{ .Values.s3.region | quote }}
- name: S3_FORCE_PATH_STYLE
  value: {{ .Values.s3.forcePathStyle | quote }}
{{- with .Values.s3.endpoint }}
- name: S3_ENDPOINT
  value: {{ . | quote }}
{{- end }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "docport.secretName" . }}
      key: DATABASE_URL
- name: S3_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ include "docport.secretName" . }}
      key: S3_ACCESS_KEY_ID
      optional: true
- name: S3_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "docport.secretName" . }}
      key: S3_SECRET_ACCESS_KEY
      optional: true
{{- end -}}
