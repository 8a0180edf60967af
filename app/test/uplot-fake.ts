/** What each chart was given: uPlot draws on a canvas happy-dom does not have, so tests read this instead. */
export const charts: { options: { series: { label?: string }[] }; data: number[][] }[] = [];

/** uPlot as the dashboard uses it, recording each chart: `vi.mock('uplot', () => import('./uplot-fake.js'))`. */
export default class UPlotFake {
  static tzDate = (date: Date) => date;
  constructor(options: { series: { label?: string }[] }, data: number[][]) {
    charts.push({ options, data });
  }
  setSize() {}
  destroy() {}
}
