import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidPricesError } from "./errors";

/** Every price the model reads; the prices file must carry each of them. */
export const PRICE_IDS = [
  "sqs.request",
  "sqs.fifo.request",
  "pipes.request",
  "stepfunctions.express.request",
  "stepfunctions.express.gbSecond",
  "stepfunctions.standard.transition",
  "dynamodb.write",
  "dynamodb.read",
  "dynamodb.storage",
  "dynamodb.pitr",
  "lambda.request",
  "lambda.arm64.gbSecond",
  "lambda.x86_64.gbSecond",
  "logs.ingestion",
  "xray.trace",
  "cloudwatch.alarm",
  "cloudwatch.dashboard",
  "cloudwatch.metric",
  "cloudwatch.request",
] as const;
export type PriceId = (typeof PRICE_IDS)[number];

/** How well the stored sources back a number: an AWS page shows it, only third-party pages do, or none does. */
export const Evidence = { Aws: "aws", Secondary: "secondary", None: "none" } as const;
export type Evidence = (typeof Evidence)[keyof typeof Evidence];

export interface PriceSource {
  readonly url: string;
  /** The date the page shows (publication or update), when it shows one. */
  readonly dateShown: string | null;
  /** What the page says that backs the number. */
  readonly says: string;
}

export interface Price {
  /** US dollars per `per` units. */
  readonly usd: number;
  readonly per: number;
  readonly unit: string;
  /** When the price was taken (YYYY-MM-DD). */
  readonly takenOn: string;
  /** "none" when no stored source shows the number: the output flags it as unconfirmed. */
  readonly evidence: Evidence;
  readonly sources: readonly PriceSource[];
  readonly note: string;
}

export interface PriceBook {
  readonly region: string;
  readonly currency: string;
  readonly takenOn: string;
  readonly method: string;
  readonly prices: Readonly<Record<PriceId, Price>>;
}

export const DEFAULT_PRICES_FILE = join(__dirname, "prices.us-east-1.json");

/** Dollars for one unit of a price (e.g. one request, one GB-second, one byte). */
export function unitPrice(book: PriceBook, id: PriceId): number {
  const price = book.prices[id];
  return price.usd / price.per;
}

export function loadPriceBook(path: string = DEFAULT_PRICES_FILE): PriceBook {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new InvalidPricesError(`cannot read the prices file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parsePriceBook(raw, path);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks the shape of a prices document: every price needs a unit, the date it was taken and at least one source URL. */
export function parsePriceBook(raw: unknown, where = "prices"): PriceBook {
  const fail = (field: string, fix: string): never => {
    throw new InvalidPricesError(`${where}: ${field} ${fix}`);
  };
  if (!isObject(raw)) return fail("(document)", "must be a JSON object with region, currency, takenOn and prices");
  for (const field of ["region", "currency", "method"] as const) {
    if (typeof raw[field] !== "string" || raw[field] === "") fail(field, "must be a non-empty string");
  }
  if (raw.currency !== "USD") fail("currency", `is "${String(raw.currency)}": the model prices in USD`);
  if (typeof raw.takenOn !== "string" || !DATE.test(raw.takenOn)) fail("takenOn", "must be a date written YYYY-MM-DD");
  if (!isObject(raw.prices)) return fail("prices", "must be an object keyed by price id");
  const prices = raw.prices;
  for (const id of PRICE_IDS) {
    const entry = prices[id];
    const at = `prices["${id}"]`;
    if (!isObject(entry)) fail(at, "is missing: add it with usd, per, unit, takenOn, evidence, sources and note");
    const price = entry as Record<string, unknown>;
    if (typeof price.usd !== "number" || !(price.usd >= 0) || !Number.isFinite(price.usd)) fail(`${at}.usd`, "must be a finite number >= 0");
    if (typeof price.per !== "number" || !(price.per > 0)) fail(`${at}.per`, "must be a number > 0 (how many units the usd amount buys)");
    if (typeof price.unit !== "string" || price.unit.trim() === "") fail(`${at}.unit`, "must say what one unit is");
    if (typeof price.takenOn !== "string" || !DATE.test(price.takenOn)) fail(`${at}.takenOn`, "must be the date the price was taken, YYYY-MM-DD");
    if (!(Object.values(Evidence) as unknown[]).includes(price.evidence)) fail(`${at}.evidence`, `must be one of ${Object.values(Evidence).join(", ")} (none when no source shows the number)`);
    if (typeof price.note !== "string") fail(`${at}.note`, 'must be a string ("" when there is nothing to add)');
    if (!Array.isArray(price.sources) || price.sources.length === 0) fail(`${at}.sources`, "must list at least one source");
    (price.sources as unknown[]).forEach((source, index) => {
      const s = isObject(source) ? source : fail(`${at}.sources[${index}]`, "must be an object with url, dateShown and says");
      if (typeof s.url !== "string" || !/^https:\/\/\S+$/.test(s.url)) fail(`${at}.sources[${index}].url`, "must be an https URL");
      if (s.dateShown !== null && (typeof s.dateShown !== "string" || s.dateShown === "")) fail(`${at}.sources[${index}].dateShown`, "must be the date the page shows, or null");
      if (typeof s.says !== "string" || s.says === "") fail(`${at}.sources[${index}].says`, "must quote or summarise what the page says");
    });
  }
  const unknown = Object.keys(prices).filter((id) => !(PRICE_IDS as readonly string[]).includes(id));
  if (unknown.length) fail(`prices["${unknown[0]}"]`, `is not a price the model reads: remove it or add it to PRICE_IDS`);
  return raw as unknown as PriceBook;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
