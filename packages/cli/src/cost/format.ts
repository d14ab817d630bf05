import { Quantity } from "./line";

/** Number formatting for reports: dollars, quantities in their natural units, shares. */

export function usd(value: number, digits = 4): string {
  return `$${value.toFixed(digits)}`;
}

/** Thousands separators, at most two decimals: for the "how counted" column. */
export function fmt(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export function share(value: number, digits = 1): string {
  return `${(value * 100).toFixed(digits)}%`;
}

export function count(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(3).replace(/\.?0+$/, "")} M`;
  if (Math.abs(value) >= 1e4) return `${(value / 1e3).toFixed(1).replace(/\.0$/, "")} k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function quantity(value: number, unit: Quantity): string {
  switch (unit) {
    case Quantity.Bytes:
      return value >= 1024 ** 3 ? `${(value / 1024 ** 3).toFixed(3)} GiB` : `${(value / 1024 ** 2).toFixed(2)} MiB`;
    case Quantity.GbSeconds:
      return `${value.toFixed(1)} GB-s`;
    case Quantity.GbMonths:
      return `${value.toFixed(3)} GB-month`;
    case Quantity.Units:
      return `${count(value)} units`;
    default:
      return `${count(value)} ${unit}`;
  }
}

/** A unit price the way AWS quotes it: per million, per GB, per GB-second... */
export function unitPriceText(unitPrice: number, unit: Quantity): string {
  switch (unit) {
    case Quantity.Bytes:
      return `$${(unitPrice * 1024 ** 3).toFixed(2)}/GB`;
    case Quantity.GbSeconds:
      return `$${unitPrice.toPrecision(6).replace(/0+$/, "")}/GB-s`;
    case Quantity.GbMonths:
      return `$${unitPrice.toFixed(2)}/GB-month`;
    default:
      return `$${(unitPrice * 1e6).toFixed(3).replace(/0+$/, "").replace(/\.$/, "")}/M`;
  }
}
