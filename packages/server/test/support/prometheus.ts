import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/**
 * A /metrics answer read with parse-prometheus-text-format (a port of the Prometheus Python
 * client's parser): `families` as it groups them (name, HELP, TYPE), and `samples`, every sample
 * line with its own labels.
 *
 * The library groups a histogram's lines wrongly when the histogram has labels: every series is
 * folded into one and the labelled `_sum`/`_count` lines are dropped (its issue #13, fix still
 * unmerged). So the samples are read from a second parse of the same text without its
 * histogram/summary TYPE lines, where the library returns each line as an untyped sample
 * (`x_bucket{…,le}`, `x_sum{…}`, `x_count{…}`). Every line is parsed by the library either way.
 */
export interface Exposition {
  families: Map<string, PrometheusFamily>;
  samples: Map<string, Array<{ labels: Record<string, string>; value: number }>>;
}

/** A sample value as Prometheus reads it (Go's ParseFloat: case-insensitive NaN and Inf). */
function sampleValue(name: string, text: string | undefined): number {
  if (text === undefined) throw new Error(`${name}: a sample without a value`);
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^[+-]?inf$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`${name}: ${text} is not a number`);
  return Number(text);
}

export function parseExposition(text: string): Exposition {
  const families = new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
  const untyped = text
    .split('\n')
    .filter((line) => !/^# TYPE \S+ (histogram|summary)$/.test(line))
    .join('\n');
  const samples: Exposition['samples'] = new Map();
  for (const family of parsePrometheusTextFormat(untyped)) {
    const list = samples.get(family.name) ?? [];
    for (const sample of family.metrics) {
      list.push({ labels: sample.labels ?? {}, value: sampleValue(family.name, sample.value) });
    }
    samples.set(family.name, list);
  }
  return { families, samples };
}

/** GETs a /metrics URL and parses it; throws on anything but a 200 in the Prometheus text format. */
export async function scrape(url: string, token?: string): Promise<Exposition> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const text = await response.text();
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}: ${text}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/plain; version=0.0.4')) throw new Error(`scrape answered ${contentType}`);
  return parseExposition(text);
}

/**
 * The sum of the samples named `name` whose labels include `labels`: a counter or gauge series,
 * or a histogram's `<name>_count` / `<name>_sum` / `<name>_bucket`. 0 when none match.
 */
export function sampleSum(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return (exposition.samples.get(name) ?? [])
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
