/**
 * The deployment files a team copies: the Dockerfile and docker-compose.yml. No container runtime
 * runs here, so they are read: every variable they set for Ferry must be one docs/configuration.md
 * documents (a typo there would be ignored by the server silently), the health check must use the
 * server's readiness route, and the image must be built by the script
 * test/deployment/server-bundle.test.ts runs. The Helm chart is rendered by Helm and validated in
 * helm-chart.test.ts; the compose stack's scripts and proxy run in compose-keys and compose-proxy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../scripts/local-registry.js';
import type { NodeVersions } from '../../scripts/node-engines.js';
import { documented, undocumented } from './support/documented-variables.js';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

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
  // The instances: the image, run with Ferry's environment (ferry-keys, the one-shot, has none).
  const ferry = Object.entries(compose.services).filter(
    ([, service]) => service.image === 'ferry-server:local' && service.environment !== undefined,
  );

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

  it('says which proxies to believe (TRUST_PROXY): the one hop of its proxy, the only way to the instances', () => {
    for (const [, service] of ferry) expect(service.environment?.TRUST_PROXY).toBe('1');
  });

  it('sets only documented variables on the Ferry instances', () => {
    for (const [, service] of ferry) expect(undocumented(Object.keys(service.environment ?? {}))).toEqual([]);
  });
});
