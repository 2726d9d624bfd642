import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { FerryMetrics } from '../../src/metrics/ferry-metrics.js';
import { parseExposition } from '../support/prometheus.js';

/**
 * The Grafana dashboard beside the deployment files queries only what Ferry exports: every query
 * is PromQL (the Prometheus project's own grammar), every metric it names is in FerryMetrics'
 * registry output, every label it groups by is one those metrics carry, and every Ferry metric has
 * a panel. A renamed metric or label fails here instead of leaving an empty panel.
 */
const DASHBOARD = fileURLToPath(new URL('../../../../deploy/grafana/ferry-dashboard.json', import.meta.url));

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; definition?: string }> };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const queries = panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);

/** Grafana's variables, replaced by values of the same kind so the grammar can read the query. */
const asPromql = (expr: string) =>
  expr
    .replaceAll('$__rate_interval', '5m')
    .replaceAll('$__range', '6h')
    .replaceAll(/\$(job|instance)\b/g, '.*');

interface QueryParts {
  errors: number;
  metrics: string[];
  /** Label names in `by (…)` / `without (…)` / `ignoring (…)` / matchers. */
  labels: string[];
}

function partsOf(expr: string): QueryParts {
  const text = asPromql(expr);
  const parts: QueryParts = { errors: 0, metrics: [], labels: [] };
  parser.parse(text).iterate({
    enter: (node) => {
      if (node.type.isError) parts.errors++;
      else if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        parts.metrics.push(text.slice(node.from, node.to));
      } else if (node.name === 'LabelName') parts.labels.push(text.slice(node.from, node.to));
    },
  });
  return parts;
}

/** Everything FerryMetrics exports, with a series in every family so every label shows. */
async function exported() {
  const metrics = new FerryMetrics();
  metrics.observeDatabase({
    engine: 'postgres',
    pools: {
      main: { totalCount: 1, idleCount: 1, waitingCount: 0, options: { max: 1 } },
      ephemeral: { totalCount: 1, idleCount: 1, waitingCount: 0, options: { max: 1 } },
    },
  });
  // As with REDIS_URL: the breaker's gauge is exported only then.
  metrics.observeRateLimitBreaker(() => 'closed');
  metrics.manifestNoRelease('ios', 'production', '1.0.0(2)');
  metrics.certificateFlow('resident-certificate', 'VENDOR_A', 'issued');
  metrics.vendorRequest('VENDOR_A', 'token', 0.1);
  return parseExposition((await metrics.exposition()).text);
}

describe('the Grafana dashboard (deploy/grafana/ferry-dashboard.json)', () => {
  it('has panels with queries, and a stable uid', () => {
    expect(dashboard.uid).toBe('ferry-overview');
    expect(queries.length).toBeGreaterThan(20);
  });

  it('writes every query in PromQL the Prometheus grammar accepts, selecting job and instance', () => {
    for (const { panel, expr } of queries) {
      const parts = partsOf(expr);
      expect(parts.errors, `${panel}: ${expr}`).toBe(0);
      expect(parts.metrics.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      // Every selector follows the dashboard's job and instance choice.
      const selectors = expr.match(/[a-z_:][a-z0-9_:]*\{[^}]*\}/g) ?? [];
      expect(selectors.length, `${panel}: ${expr}`).toBe(parts.metrics.length);
      for (const selector of selectors) expect(selector, panel).toContain('job=~"$job", instance=~"$instance"');
    }
  });

  it('queries only metrics and labels that FerryMetrics exports', async () => {
    const exposition = await exported();
    const labels = new Set(['le', 'job', 'instance']);
    for (const samples of exposition.samples.values()) {
      for (const sample of samples) for (const name of Object.keys(sample.labels)) labels.add(name);
    }
    for (const { panel, expr } of queries) {
      const parts = partsOf(expr);
      for (const metric of parts.metrics) {
        expect(exposition.samples.has(metric) || exposition.families.has(metric), `${panel}: ${metric}`).toBe(true);
      }
      for (const label of parts.labels) expect(labels.has(label), `${panel}: label ${label}`).toBe(true);
    }
    for (const variable of dashboard.templating.list) {
      const metric = variable.definition?.match(/label_values\((\w+)/)?.[1];
      if (metric) expect(exposition.families.has(metric), variable.name).toBe(true);
    }
  });

  it('has a panel for every Ferry metric', async () => {
    const exposition = await exported();
    const queried = new Set(
      queries.flatMap(({ expr }) => partsOf(expr).metrics.map((name) => name.replace(/_(bucket|sum|count)$/, ''))),
    );
    const ferry = [...exposition.families.keys()].filter((name) => name.startsWith('ferry_'));
    expect(ferry.length).toBeGreaterThan(10);
    for (const name of ferry) expect(queried.has(name), name).toBe(true);
  });
});
