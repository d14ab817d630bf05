/** Small pieces the SVG charts share (the cost chart, the capacity chart). */

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above `value`: an axis maximum that reads well. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= value) return m * power;
  return 10 * power;
}

/** Text safe inside an SVG element or attribute. */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
