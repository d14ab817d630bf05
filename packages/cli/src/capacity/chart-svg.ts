import type { CapacityPlan } from "./plan";
import { esc, niceCeiling } from "../svg/helpers";

/** A dependency-free SVG: utilisation of each part against the message rate, the 100% line and the planned rate. */

const WIDTH = 960;
const HEIGHT = 560;
const PLOT = { left: 70, right: 330, top: 70, bottom: 90 };
const COLOURS = ["#1b6ca8", "#d1495b", "#2a9d62", "#8e5ac8", "#c77d0a", "#3a3a3a", "#0aa1c7", "#b5651d", "#7a9e1f", "#c2185b", "#5c6bc0"];
/** The plot stops at 200%: above it every line is past saturation anyway. */
const Y_MAX = 2;

export function renderCapacityChart(plan: CapacityPlan, footnotes: readonly string[]): string {
  const xMax = niceCeiling(Math.max(plan.rate * 1.5, plan.maxSustainableRate * 1.25));
  const plotW = WIDTH - PLOT.left - PLOT.right;
  const plotH = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (rate: number) => PLOT.left + (rate / xMax) * plotW;
  const y = (u: number) => PLOT.top + plotH - (Math.min(u, Y_MAX) / Y_MAX) * plotH;
  const f = (v: number) => v.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="28" font-size="17" font-weight="bold" fill="#222">Utilisation of each part against the message rate</text>`,
    `<text x="${PLOT.left}" y="48" fill="#555">${esc(`saturates first: ${plan.saturatesFirst.name} at ${plan.maxSustainableRate.toLocaleString("en-US")} msg/s; planned rate ${plan.rate.toLocaleString("en-US")} msg/s`)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const u = (Y_MAX / 4) * i;
    out.push(`<line x1="${PLOT.left}" y1="${f(y(u))}" x2="${PLOT.left + plotW}" y2="${f(y(u))}" stroke="${u === 1 ? "#d1495b" : "#e3e3e3"}" stroke-width="${u === 1 ? 1.5 : 1}"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${f(y(u) + 4)}" text-anchor="end" fill="#444">${Math.round(u * 100)}%</text>`);
  }
  for (let i = 0; i <= 5; i++) {
    const rate = (xMax / 5) * i;
    out.push(`<text x="${f(x(rate))}" y="${PLOT.top + plotH + 18}" text-anchor="middle" fill="#444">${Math.round(rate).toLocaleString("en-US")}</text>`);
  }
  out.push(`<line x1="${PLOT.left}" y1="${PLOT.top + plotH}" x2="${PLOT.left + plotW}" y2="${PLOT.top + plotH}" stroke="#444"/>`);
  out.push(`<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.top + plotH}" stroke="#444"/>`);
  out.push(`<text x="${PLOT.left + plotW / 2}" y="${PLOT.top + plotH + 40}" text-anchor="middle" fill="#222">messages per second</text>`);
  out.push(`<line x1="${f(x(plan.rate))}" y1="${PLOT.top}" x2="${f(x(plan.rate))}" y2="${PLOT.top + plotH}" stroke="#888" stroke-dasharray="5 4"/>`);
  const sorted = [...plan.parts].sort((a, b) => b.utilisation - a.utilisation);
  sorted.forEach((p, i) => {
    const colour = COLOURS[i % COLOURS.length];
    // Linear in the rate: a straight line from 0 to where it leaves the plot.
    const end = Math.min(xMax, (Y_MAX * p.limit) / p.perRate);
    out.push(`<polyline data-part="${esc(p.id)}" points="${f(x(0))},${f(y(0))} ${f(x(end))},${f(y((p.perRate * end) / p.limit))}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    const ly = PLOT.top + 8 + i * 18;
    out.push(`<line x1="${WIDTH - PLOT.right + 20}" y1="${ly - 4}" x2="${WIDTH - PLOT.right + 44}" y2="${ly - 4}" stroke="${colour}" stroke-width="2.5"/>`);
    out.push(`<text x="${WIDTH - PLOT.right + 50}" y="${ly}" font-size="11" fill="#222">${esc(`${p.name} (${Math.round(p.utilisation * 100)}%)`)}</text>`);
  });
  footnotes.forEach((note, i) => out.push(`<text x="${PLOT.left}" y="${HEIGHT - 30 + i * 14}" font-size="10" fill="#666">${esc(note)}</text>`));
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
