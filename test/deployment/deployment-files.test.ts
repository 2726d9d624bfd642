/**
 * The deployment files a team copies: the Dockerfile, docker-compose.yml and the Helm chart. No
 * container runtime or Helm runs here, so they are read: every variable they set for Ferry must be
 * one docs/configuration.md documents (a typo there would be ignored by the server silently), the
 * probes and health check must use the server's health routes, and the image must be built by the
 * script test/deployment/server-bundle.test.ts runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { DEFAULT_POOL_SIZE } from '../../packages/server/src/storage/database.js';
import { REPO_ROOT } from '../../scripts/local-registry.js';
import type { NodeVersions } from '../../scripts/node-engines.js';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const CHART = 'deploy/helm/ferry';

/** Every variable named in the first column of docs/configuration.md's tables. */
const documented = (() => {
  const names = new Set<string>();
  for (const line of read('docs/configuration.md').split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
})();

const undocumented = (names: Iterable<string>) => [...names].filter((name) => !documented.has(name));

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: unknown;
}

describe('docs/configuration.md, as read here', () => {
  it('lists the variables the deployment files rely on', () => {
    for (const name of [
      'NODE_ENV',
      'FERRY_AREAS',
      'DATABASE_URL',
      'REDIS_URL',
      'OTA_SIGNING_KEY',
      'AWS_REGION',
      'TRUST_PROXY',
    ]) {
      expect(documented).toContain(name);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));

  it('builds in a stage of its own with the bundle script, and runs with production dependencies only', () => {
    expect(dockerfile).toMatch(/^FROM \S+ AS build$/m);
    expect(dockerfile).toMatch(/bash scripts\/build-server-bundle\.sh \/opt\/ferry/);
    const runtime = dockerfile.slice(dockerfile.search(/^FROM \S+ AS runtime$/m));
    expect(runtime).toMatch(/^COPY --from=build \/opt\/ferry \/opt\/ferry$/m);
    expect(runtime).not.toMatch(/npm (ci|install)/);
  });

  it('runs as a non-root user, node as the command, with a health check on /readyz', () => {
    expect(instructions.filter((line) => line.startsWith('USER ')).at(-1)).toBe('USER node');
    expect(instructions.at(-1)).toBe('CMD ["node", "node_modules/@ferry/server/bin/ferry-server.js"]');
    expect(dockerfile).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "[^\n]*\/readyz/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
  });

  it('runs on the Node line .ci/run tests in full (scripts/node-versions.json)', () => {
    const { primary } = JSON.parse(read('scripts/node-versions.json')) as NodeVersions;
    // The major only: the image takes the line's patch releases as node:<major> publishes them.
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_VERSION=${primary.split('.')[0]}$`, 'm'));
    const froms = instructions.filter((line) => line.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:\$\{NODE_VERSION\}-/);
  });

  it('sets only documented variables', () => {
    const env = [...dockerfile.matchAll(/^(?:ENV|\s+)\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
    expect(env).toEqual(expect.arrayContaining(['NODE_ENV', 'HOST', 'PORT', 'DATA_DIR']));
    expect(undocumented(env)).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const ferry = Object.entries(compose.services).filter(([, service]) => service.image === 'ferry-server:local');

  it('runs two Ferry instances on PostgreSQL, Redis and an S3-compatible store', () => {
    expect(ferry.map(([name]) => name)).toHaveLength(2);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'minio']));
    for (const [, service] of ferry) {
      expect(service.build).toBe('.');
      expect(service.environment).toMatchObject({
        NODE_ENV: 'production',
        DATABASE_URL: expect.stringMatching(/^postgres:\/\/.+@postgres:5432\//),
        REDIS_URL: expect.stringMatching(/^redis:\/\/redis:6379/),
        OBJECT_STORE_URL: expect.stringMatching(/^s3:\/\//),
        S3_ENDPOINT: 'http://minio:9000',
      });
    }
  });

  it('says which proxies to believe (TRUST_PROXY): none, since clients reach the instances directly', () => {
    for (const [, service] of ferry) expect(service.environment?.TRUST_PROXY).toBe('false');
  });

  it('sets only documented variables on the Ferry instances', () => {
    for (const [, service] of ferry) expect(undocumented(Object.keys(service.environment ?? {}))).toEqual([]);
  });
});

describe('the Helm chart', () => {
  const values = parse(read(`${CHART}/values.yaml`)) as {
    trustProxy: string;
    config: Record<string, string>;
    secrets: Record<string, string>;
    autoscaling: { enabled: boolean; minReplicas: number; maxReplicas: number };
    database: { maxConnections: number; reservedConnections: number };
  };
  const template = (name: string) => read(`${CHART}/templates/${name}`);
  // Templates are Go templates; with the template actions blanked out, what is left parses as YAML.
  const asYaml = (text: string) =>
    parseAllDocuments(text.replace(/^\s*\{\{-?[^}]*\}\}\s*$/gm, '').replace(/\{\{-?[^}]*\}\}/g, 'x'))
      .map((document) => document.toJS())
      .filter(Boolean);

  it('sets only documented variables: config, secrets and the literal env of the deployment', () => {
    const literal = [...template('deployment.yaml').matchAll(/- name: ([A-Z][A-Z0-9_]*)\n\s+value:/g)].map(
      (match) => match[1]!,
    );
    expect(literal).toEqual(expect.arrayContaining(['NODE_ENV', 'HOST', 'PORT']));
    const commented = [...read(`${CHART}/values.yaml`).matchAll(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g)].map(
      (match) => match[1]!,
    );
    expect(
      undocumented([...Object.keys(values.config), ...Object.keys(values.secrets), ...literal, ...commented]),
    ).toEqual([]);
  });

  it('passes trustProxy as TRUST_PROXY, and refuses to render an ingress without it', () => {
    expect(values).toHaveProperty('trustProxy');
    const deployment = template('deployment.yaml');
    expect(deployment).toMatch(
      /\{\{- if \.Values\.trustProxy \}\}\n\s+- name: TRUST_PROXY\n\s+value: \{\{ \.Values\.trustProxy \| quote \}\}\n\s+\{\{- else if \.Values\.ingress\.enabled \}\}\n\s+\{\{- fail "set trustProxy/,
    );
  });

  it('runs the image’s command, which stops on SIGTERM (server-bundle.test.ts): no command or args of its own', () => {
    const [deployment] = asYaml(template('deployment.yaml')) as Array<{
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    }>;
    const container = deployment!.spec.template.spec.containers[0]!;
    expect(container.command).toBeUndefined();
    expect(container.args).toBeUndefined();
  });

  it('probes liveness on /healthz and readiness on /readyz', () => {
    const [deployment] = asYaml(template('deployment.yaml')) as Array<{
      spec: { template: { spec: { containers: Array<Record<string, { httpGet?: { path: string } }>> } } };
    }>;
    const container = deployment!.spec.template.spec.containers[0]!;
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
  });

  it('runs as non-root, keeps secrets in a Secret, and scales horizontally on CPU', () => {
    const deployment = template('deployment.yaml');
    expect(deployment).toMatch(/runAsNonRoot: true/);
    expect(deployment).toMatch(/secretRef:\n\s+name: \{\{ include "ferry.secretName" \. \}\}/);
    expect(template('secret.yaml')).toMatch(/kind: Secret/);
    const [hpa] = asYaml(template('hpa.yaml')) as Array<{
      apiVersion: string;
      kind: string;
      spec: { metrics: unknown[] };
    }>;
    expect(hpa).toMatchObject({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      spec: { metrics: [{ type: 'Resource', resource: { name: 'cpu' } }] },
    });
    expect(values.autoscaling.minReplicas).toBeGreaterThanOrEqual(2);
    expect(values.autoscaling.maxReplicas).toBeGreaterThan(values.autoscaling.minReplicas);
  });

  it('sizes DATABASE_POOL_SIZE from maxReplicas so the most pods at once fit max_connections, as the server defaults it', () => {
    // The template's arithmetic (_helpers.tpl, "ferry.databasePoolSize"), as values.yaml states it.
    const helpers = template('_helpers.tpl');
    expect(helpers).toContain('{{- $peak := add $pods (div (add $pods 3) 4) -}}');
    expect(helpers).toContain('{{- $size := sub (div $share $peak) 1 -}}');
    expect(template('deployment.yaml')).toMatch(
      /\{\{- if not \.Values\.config\.DATABASE_POOL_SIZE \}\}\n(\s+#[^\n]*\n)*\s+- name: DATABASE_POOL_SIZE\n\s+value: \{\{ include "ferry\.databasePoolSize" \. \| quote \}\}/,
    );
    const pods = values.autoscaling.maxReplicas + Math.ceil(values.autoscaling.maxReplicas / 4);
    const share = values.database.maxConnections - values.database.reservedConnections;
    const pool = Math.floor(share / pods) - 1;
    expect(values.database.maxConnections).toBe(100); // PostgreSQL's default
    expect(pods * (pool + 1)).toBeLessThanOrEqual(share);
    // The chart's defaults and the server's agree, so an instance run without the chart fits too.
    expect(pool).toBe(DEFAULT_POOL_SIZE);
  });
});
