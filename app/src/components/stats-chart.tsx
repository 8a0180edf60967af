import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of the chart: a label and a value per period. */
export interface ChartSeries {
  label: string;
  /** A CSS colour of the palette (styles.css keeps them in contrast with the background). */
  stroke: string;
  values: number[];
}

const HEIGHT = 260;

/** UTC midnight of a `YYYY-MM-DD` period, in seconds (uPlot's time axis). */
export const secondsOf = (period: string): number => Date.parse(`${period}T00:00:00Z`) / 1000;

/**
 * A time-series chart (uPlot, canvas) of the series over the periods, as wide as its container. The figures are also a
 * table (StatsTable) for screen readers and keyboard users: the canvas is marked decorative beside its caption.
 */
export function StatsChart({ periods, series, label }: { periods: string[]; series: ChartSeries[]; label: string }) {
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const data: uPlot.AlignedData = [periods.map(secondsOf), ...series.map((line) => line.values)];
    const chart = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: HEIGHT,
        // Days are UTC days (GET /client/stats): the axis says the same dates, whatever the browser's zone.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')) }],
        series: [
          { label: 'Day' },
          ...series.map((line) => ({
            label: line.label,
            stroke: line.stroke,
            width: 2,
            points: { show: periods.length <= 31 },
          })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [periods, series]);

  return (
    <figure class="chart">
      <figcaption>{label}</figcaption>
      <div ref={holder} aria-hidden="true" data-testid="stats-chart" />
    </figure>
  );
}

/** The chart's figures as a table, newest period first. */
export function StatsTable({
  periods,
  series,
  caption,
}: {
  periods: string[];
  series: ChartSeries[];
  caption: string;
}) {
  const rows = periods
    .map((period, index) => ({ period, values: series.map((line) => line.values[index] ?? 0) }))
    .reverse();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level.
    <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {series.map((line) => (
              <th scope="col" key={line.label}>
                {line.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.period}>
              <th scope="row">{row.period}</th>
              {row.values.map((value, index) => (
                <td key={series[index]!.label}>{value}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
