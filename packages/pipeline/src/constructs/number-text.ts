/**
 * A number with thousands separators, as the refusals print sizes ("6,520"). One formatter for every call:
 * `toLocaleString` builds a new ICU formatter each time, which dominated the simulation's drawing of props (each
 * refused candidate prints its sizes).
 */
const EN_US = new Intl.NumberFormat("en-US");

export const thousands = (value: number): string => EN_US.format(value);
