import type { GridPoint } from "./compare";
import { esc, niceCeiling } from "../svg/helpers";

/** A dependency-free SVG line chart: cost per million messages against batch size, one colour per duplicate ratio. */

export interface ChartOptions {
  readonly title: string;
  readonly subtitle: string;
  /** Small print under the plot (assumptions, price date). */
  readonly footnotes: readonly string[];
}

const WIDTH = 900;
const HEIGHT = 560;
const PLOT = { left: 80, right: 270, top: 78, bottom: 120 };
const COLOURS = ["#1b6ca8", "#d1495b", "#2a9d62", "#8e5ac8", "#c77d0a"];

export function renderCostChart(points: readonly GridPoint[], options: ChartOptions): string {
  const ratios = [...new Set(points.map((p) => p.duplicateRatio))].sort((a, b) => a - b);
  const batches = [...new Set(points.map((p) => p.batchSize))].sort((a, b) => a - b);
  const maxUsd = Math.max(...points.flatMap((p) => [p.designUsd, p.baselineUsd]));
  const yMax = niceCeiling(maxUsd);
  const plotW = WIDTH - PLOT.left - PLOT.right;
  const plotH = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (batch: number) => PLOT.left + ((batch - batches[0]) / Math.max(1, batches[batches.length - 1] - batches[0])) * plotW;
  const y = (usd: number) => PLOT.top + plotH - (usd / yMax) * plotH;
  const n = (v: number) => v.toFixed(1);

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="13">`);
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<text x="${PLOT.left}" y="30" font-size="18" font-weight="bold" fill="#222">${esc(options.title)}</text>`);
  out.push(`<text x="${PLOT.left}" y="52" fill="#555">${esc(options.subtitle)}</text>`);

  // Grid and y axis labels.
  const step = yMax / 5;
  for (let i = 0; i <= 5; i++) {
    const value = step * i;
    out.push(`<line x1="${PLOT.left}" y1="${n(y(value))}" x2="${PLOT.left + plotW}" y2="${n(y(value))}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${n(y(value) + 4)}" text-anchor="end" fill="#444">$${value.toFixed(value < 10 && step < 1 ? 2 : 0)}</text>`);
  }
  for (const batch of batches) {
    out.push(`<line x1="${n(x(batch))}" y1="${PLOT.top + plotH}" x2="${n(x(batch))}" y2="${PLOT.top + plotH + 5}" stroke="#444"/>`);
    out.push(`<text x="${n(x(batch))}" y="${PLOT.top + plotH + 20}" text-anchor="middle" fill="#444">${batch}</text>`);
  }
  out.push(`<line x1="${PLOT.left}" y1="${PLOT.top + plotH}" x2="${PLOT.left + plotW}" y2="${PLOT.top + plotH}" stroke="#444"/>`);
  out.push(`<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.top + plotH}" stroke="#444"/>`);
  out.push(`<text x="${PLOT.left + plotW / 2}" y="${PLOT.top + plotH + 42}" text-anchor="middle" fill="#222">batch size (records per pipe batch = per Express execution)</text>`);
  out.push(`<text transform="translate(24 ${PLOT.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#222">USD per million messages</text>`);

  // Series: this design (solid, dots) and the Lambda guard (dashed) per duplicate ratio.
  ratios.forEach((ratio, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const series = points.filter((p) => p.duplicateRatio === ratio).sort((a, b) => a.batchSize - b.batchSize);
    const design = series.map((p) => `${n(x(p.batchSize))},${n(y(p.designUsd))}`).join(" ");
    const baseline = series.map((p) => `${n(x(p.batchSize))},${n(y(p.baselineUsd))}`).join(" ");
    out.push(`<polyline points="${baseline}" fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="7 5"/>`);
    out.push(`<polyline points="${design}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    for (const p of series) out.push(`<circle cx="${n(x(p.batchSize))}" cy="${n(y(p.designUsd))}" r="3.5" fill="${colour}"/>`);
    const last = series[series.length - 1];
    out.push(`<text x="${n(x(last.batchSize) + 8)}" y="${n(y(last.designUsd) + 4)}" fill="${colour}">$${last.designUsd.toFixed(2)}</text>`);
    out.push(`<text x="${n(x(last.batchSize) + 8)}" y="${n(y(last.baselineUsd) + 4)}" fill="${colour}">$${last.baselineUsd.toFixed(2)}</text>`);
  });

  // Legend.
  const lx = WIDTH - PLOT.right + 70;
  let ly = PLOT.top + 10;
  out.push(`<text x="${lx}" y="${ly}" font-weight="bold" fill="#222">duplicates</text>`);
  ly += 22;
  ratios.forEach((ratio, index) => {
    const colour = COLOURS[index % COLOURS.length];
    out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="${colour}" stroke-width="2.5"/>`);
    out.push(`<text x="${lx + 36}" y="${ly}" fill="#222">${Math.round(ratio * 100)}%</text>`);
    ly += 20;
  });
  ly += 12;
  out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="#444" stroke-width="2.5"/>`);
  out.push(`<text x="${lx + 36}" y="${ly}" fill="#222">this design</text>`);
  ly += 20;
  out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="#444" stroke-width="2" stroke-dasharray="7 5"/>`);
  out.push(`<text x="${lx + 36}" y="${ly}" fill="#222">Lambda guard,</text>`);
  out.push(`<text x="${lx + 36}" y="${ly + 16}" fill="#222">1 execution/message</text>`);

  options.footnotes.forEach((note, index) => {
    out.push(`<text x="${PLOT.left}" y="${HEIGHT - 48 + index * 16}" font-size="11" fill="#666">${esc(note)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
