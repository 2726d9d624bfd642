/**
 * The Helm chart (deploy/helm/ferry), rendered by Helm itself (scripts/use-helm.sh) and every object
 * validated against the Kubernetes schemas (scripts/check-chart.ts, which .ci/run also runs), then
 * read for what a real cluster needs (issue 35, item 6): a PodDisruptionBudget, topology spread,
 * `seccompProfile: RuntimeDefault`, an optional NetworkPolicy, /metrics behind a token, a database
 * pool sized from the connection budget and the most pods that can run, readiness that survives a
 * database outage and liveness that ignores it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { READINESS_DATABASE_TIMEOUT_MS } from '../../packages/server/src/routes/health.js';
import {
  CHART,
  CI_VALUES,
  ciValuesFiles,
  helmBinary,
  type KubernetesObject,
  lintChart,
  renderChart,
  validateObjects,
} from '../../scripts/check-chart.js';
import { SLOW_HANG_GUARD_MS } from '../support/hang-guard.cjs';
import { documented, undocumented } from './support/documented-variables.js';

const MINIMAL = path.join(CI_VALUES, 'minimal-values.yaml');

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet: { path: string; port: string };
  timeoutSeconds?: number;
}
interface Container {
  env: EnvVar[];
  ports: Array<{ name: string; containerPort: number }>;
  livenessProbe: Probe;
  readinessProbe: Probe;
  startupProbe: Probe;
  securityContext: Record<string, unknown>;
}
interface PodSpec {
  securityContext: Record<string, unknown>;
  topologySpreadConstraints?: Array<Record<string, unknown>>;
  containers: Container[];
}
interface Deployment extends KubernetesObject {
  spec: {
    selector: { matchLabels: Record<string, string> };
    strategy: { rollingUpdate: { maxSurge: number | string; maxUnavailable: number } };
    template: { metadata: { annotations: Record<string, string> }; spec: PodSpec };
  };
}

let helm: string;
beforeAll(() => {
  helm = helmBinary();
}, SLOW_HANG_GUARD_MS);

function render(set: string[] = [], files = [MINIMAL]): KubernetesObject[] {
  const rendered = renderChart(helm, files, set);
  if (!rendered.ok) throw new Error(rendered.error);
  return rendered.objects;
}
const refusal = (set: string[], files = [MINIMAL]) => {
  const rendered = renderChart(helm, files, set);
  return rendered.ok ? undefined : rendered.error;
};
const ofKind = <T extends KubernetesObject = KubernetesObject>(objects: KubernetesObject[], kind: string) =>
  objects.filter((object) => object.kind === kind) as T[];
const deploymentOf = (objects: KubernetesObject[]) => ofKind<Deployment>(objects, 'Deployment')[0]!;
const containerOf = (objects: KubernetesObject[]) => deploymentOf(objects).spec.template.spec.containers[0]!;
const envOf = (objects: KubernetesObject[], name: string) =>
  containerOf(objects).env.find((each) => each.name === name);
const poolSize = (set: string[], files = [MINIMAL]) => Number(envOf(render(set, files), 'DATABASE_POOL_SIZE')?.value);

describe('deploy/helm/ferry, rendered by Helm and validated against the Kubernetes schemas', () => {
  it('is checked with every values file under ci/', () => {
    expect(ciValuesFiles().map((file) => path.basename(file))).toEqual([
      'fixed-replicas-values.yaml',
      'minimal-values.yaml',
      'production-values.yaml',
    ]);
  });

  it.each(ciValuesFiles().map((file) => [path.basename(file), file]))(
    '%s: lints strictly, renders, and every object is valid',
    async (_name, file) => {
      expect(lintChart(helm, [file])).toEqual([]);
      const objects = render([], [file]);
      expect(objects.length).toBeGreaterThan(4);
      expect(await validateObjects(objects)).toEqual([]);
    },
  );

  it('the validation finds a misspelt field and a wrong type, which the API server would refuse', async () => {
    const deployment = structuredClone(deploymentOf(render()));
    const pod = deployment.spec.template.spec;
    pod.securityContext = { ...pod.securityContext, seccompProfle: { type: 'RuntimeDefault' } };
    (pod.containers[0]!.readinessProbe as unknown as Record<string, unknown>).periodSeconds = 'five';
    const problems = await validateObjects([deployment]);
    expect(problems.some((problem) => problem.includes('\'"seccompProfle"\' does not exist'))).toBe(true);
    expect(problems.some((problem) => problem.includes('periodSeconds must be integer'))).toBe(true);
  });

  it('sets only documented variables: ConfigMap, Secret, the env of the Deployment, and those values.yaml names', () => {
    const names = new Set<string>();
    for (const file of ciValuesFiles()) {
      const objects = render([], [file]);
      for (const map of ofKind(objects, 'ConfigMap')) for (const key of Object.keys(map.data ?? {})) names.add(key);
      for (const secret of ofKind(objects, 'Secret'))
        for (const key of Object.keys(secret.stringData ?? {})) names.add(key);
      for (const each of containerOf(objects).env) names.add(each.name);
    }
    const values = fs.readFileSync(path.join(CHART, 'values.yaml'), 'utf8');
    for (const match of values.matchAll(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g)) names.add(match[1]!);
    expect(names).toContain('DATABASE_POOL_SIZE');
    expect(names).toContain('METRICS_TOKEN');
    expect(undocumented(names)).toEqual([]);
    expect(documented.size).toBeGreaterThan(0);
  });
});

describe('what a real cluster needs', () => {
  it('a PodDisruptionBudget: evictions take one pod at a time, and never block a drain', () => {
    const objects = render();
    const [budget] = ofKind(objects, 'PodDisruptionBudget');
    expect(budget).toMatchObject({
      apiVersion: 'policy/v1',
      spec: { maxUnavailable: 1, selector: { matchLabels: deploymentOf(objects).spec.selector.matchLabels } },
    });
    expect(ofKind(render(['podDisruptionBudget.enabled=false']), 'PodDisruptionBudget')).toEqual([]);
  });

  it('pods spread over nodes and zones, each rollout on its own; a list of your own replaces them', () => {
    const objects = render();
    const spread = deploymentOf(objects).spec.template.spec.topologySpreadConstraints;
    expect(spread?.map((each) => each.topologyKey)).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    for (const each of spread ?? []) {
      expect(each).toMatchObject({
        maxSkew: 1,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: deploymentOf(objects).spec.selector.matchLabels },
        matchLabelKeys: ['pod-template-hash'],
      });
    }
    const hard = render(['topologySpread.whenUnsatisfiable=DoNotSchedule']);
    expect(
      deploymentOf(hard).spec.template.spec.topologySpreadConstraints?.map((each) => each.whenUnsatisfiable),
    ).toEqual(['DoNotSchedule', 'DoNotSchedule']);
    const own = render([
      'topologySpreadConstraints[0].maxSkew=2',
      'topologySpreadConstraints[0].topologyKey=example.com/rack',
      'topologySpreadConstraints[0].whenUnsatisfiable=DoNotSchedule',
    ]);
    expect(deploymentOf(own).spec.template.spec.topologySpreadConstraints).toEqual([
      { maxSkew: 2, topologyKey: 'example.com/rack', whenUnsatisfiable: 'DoNotSchedule' },
    ]);
  });

  it('pods run under the runtime default seccomp profile, non-root, read-only, without capabilities', () => {
    const objects = render();
    const pod = deploymentOf(objects).spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0]!.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('an optional NetworkPolicy: the HTTP port from the ingress controller, the metrics port from Prometheus', () => {
    expect(ofKind(render(), 'NetworkPolicy')).toEqual([]);
    const [policy] = ofKind(render(['networkPolicy.enabled=true']), 'NetworkPolicy');
    expect(policy).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      spec: {
        policyTypes: ['Ingress'],
        ingress: [
          {
            ports: [{ port: 'http', protocol: 'TCP' }],
            from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
          },
          {
            ports: [{ port: 'metrics', protocol: 'TCP' }],
            from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
          },
        ],
      },
    });
    // An empty httpFrom opens the HTTP port to every pod; the metrics port stays Prometheus's.
    const [open] = ofKind(render(['networkPolicy.enabled=true', 'networkPolicy.httpFrom=null']), 'NetworkPolicy');
    const rules = (open!.spec as { ingress: Array<{ from?: unknown; ports: unknown }> }).ingress;
    expect(rules[0]).toEqual({ ports: [{ port: 'http', protocol: 'TCP' }] });
    expect(rules[1]!.from).toBeDefined();
  });

  it('/metrics on its own port answers only with the bearer token the pod must have, and is not in the Service', () => {
    const objects = render();
    expect(containerOf(objects).ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
    expect(envOf(objects, 'METRICS_PORT')?.value).toBe('9464');
    expect(envOf(objects, 'METRICS_HOST')?.value).toBe('0.0.0.0');
    // A required key: the pod does not start without the token rather than serve /metrics to anyone.
    expect(envOf(objects, 'METRICS_TOKEN')).toEqual({
      name: 'METRICS_TOKEN',
      valueFrom: { secretKeyRef: { name: 'ferry-ferry', key: 'METRICS_TOKEN' } },
    });
    const [service] = ofKind(objects, 'Service');
    expect((service!.spec as { ports: Array<{ name: string }> }).ports.map((port) => port.name)).toEqual(['http']);
    expect(refusal(['secrets.METRICS_TOKEN='])).toMatch(/set secrets\.METRICS_TOKEN/);
    // A Secret managed elsewhere must hold it; Kubernetes holds the pod back otherwise.
    expect(refusal(['secrets.METRICS_TOKEN=', 'existingSecret=ferry-secrets'])).toBeUndefined();
    const off = render(['metrics.enabled=false', 'secrets.METRICS_TOKEN=']);
    expect(envOf(off, 'METRICS_TOKEN')).toBeUndefined();
    expect(containerOf(off).ports.map((port) => port.name)).toEqual(['http']);
  });

  it('liveness never asks the database; readiness is /readyz, with a timeout above the server’s own database deadline', () => {
    const container = containerOf(render());
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.readinessProbe.timeoutSeconds! * 1000).toBeGreaterThan(READINESS_DATABASE_TIMEOUT_MS);
  });

  it('runs the image’s command, which stops on SIGTERM (server-bundle.test.ts): no command or args of its own', () => {
    const container = containerOf(render()) as { command?: unknown; args?: unknown };
    expect(container.command).toBeUndefined();
    expect(container.args).toBeUndefined();
  });

  it('passes trustProxy as TRUST_PROXY, and refuses to render an ingress without it', () => {
    expect(envOf(render(['trustProxy=10.244.0.0/16']), 'TRUST_PROXY')?.value).toBe('10.244.0.0/16');
    expect(refusal(['ingress.enabled=true'])).toMatch(/set trustProxy/);
  });

  it('scales horizontally on CPU between at least two pods', () => {
    const [autoscaler] = ofKind(render(), 'HorizontalPodAutoscaler');
    expect(autoscaler).toMatchObject({
      apiVersion: 'autoscaling/v2',
      spec: { minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu' } }] },
    });
    const values = parse(fs.readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as {
      autoscaling: { minReplicas: number; maxReplicas: number };
    };
    expect(values.autoscaling.maxReplicas).toBeGreaterThan(values.autoscaling.minReplicas);
  });
});

describe('DATABASE_POOL_SIZE from the connection budget and the most pods that can run at once', () => {
  // Per pod: pool + 1 (the pool and LISTEN). Pods: maxReplicas (or replicaCount) + maxSurge.
  it.each([
    ['the defaults: 80 over 10 + 1 pods', 6, []],
    ['fewer pods get more each: 80 over 4 + 1', 15, ['autoscaling.maxReplicas=4']],
    ['a bigger budget', 18, ['database.connectionBudget=400', 'autoscaling.maxReplicas=20']],
    [
      'no autoscaler: replicaCount + a surge of 25 % rounded up',
      19,
      ['autoscaling.enabled=false', 'replicaCount=3', 'rollingUpdate.maxSurge=25%'],
    ],
    [
      'a pool of your own that fits: 21 pods × 9 ≤ 400',
      8,
      ['database.connectionBudget=400', 'autoscaling.maxReplicas=20', 'database.poolSize=8'],
    ],
  ] as Array<[string, number, string[]]>)('%s → %d', (_name, expected, set) => {
    expect(poolSize(set)).toBe(expected);
    const pods = Number(set.find((pair) => pair.startsWith('autoscaling.maxReplicas='))?.split('=')[1] ?? 10);
    const budget = Number(set.find((pair) => pair.startsWith('database.connectionBudget='))?.split('=')[1] ?? 80);
    if (!set.includes('autoscaling.enabled=false')) expect((pods + 1) * (expected + 1)).toBeLessThanOrEqual(budget);
  });

  it.each([
    ['more pods than the budget can hold', ['autoscaling.maxReplicas=40'], /connectionBudget 80 cannot give 41 pods/],
    [
      'a pool of your own that does not fit',
      ['database.connectionBudget=400', 'autoscaling.maxReplicas=20', 'database.poolSize=20'],
      /21 pods .* x 21 connections = 441, over database\.connectionBudget 400/,
    ],
    ['the variable set by hand', ['config.DATABASE_POOL_SIZE=50'], /set database\.poolSize/],
  ] as Array<[string, string[], RegExp]>)('refuses %s', (_name, set, message) => {
    expect(refusal(set)).toMatch(message);
  });
});
