import { useT } from '../i18n/use-t.js';

/** A small SVG bar chart of counts per day; attributes only (the CSP forbids inline styles). */
export function BarChart({
  title,
  series,
  tone,
}: {
  title: string;
  series: Array<{ day: string; devices: number }>;
  tone: 'good' | 'bad';
}) {
  const { t, devices } = useT();
  const width = 280;
  const height = 90;
  const max = Math.max(1, ...series.map((point) => point.devices));
  const barWidth = width / Math.max(1, series.length);
  const total = series.reduce((sum, point) => sum + point.devices, 0);
  const first = series[0]?.day ?? '';
  const last = series.at(-1)?.day ?? '';
  return (
    <figure className="chart">
      <figcaption>{t('chart.caption', { title, devices: devices(total), first, last })}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 14}`}
        role="img"
        aria-label={t('chart.label', { title, days: series.map((p) => `${p.day} ${p.devices}`).join(', ') })}
        className={`chart-svg ${tone}`}
      >
        <line x1="0" y1={height} x2={width} y2={height} className="axis" />
        {series.map((point, index) => {
          const h = (point.devices / max) * (height - 4);
          return (
            <rect key={point.day} x={index * barWidth + 1} y={height - h} width={barWidth - 2} height={h}>
              <title>
                {point.day}: {point.devices}
              </title>
            </rect>
          );
        })}
        <text x="0" y={height + 12} className="tick">
          {first.slice(5)}
        </text>
        <text x={width} y={height + 12} textAnchor="end" className="tick">
          {last.slice(5)}
        </text>
      </svg>
    </figure>
  );
}
