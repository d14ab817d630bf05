import { readFileSync } from "node:fs";
import { InvalidPricesError } from "../../src/cost/errors";
import { DEFAULT_PRICES_FILE, PRICE_IDS, loadPriceBook, parsePriceBook, unitPrice } from "../../src/cost/prices";

const raw = () => JSON.parse(readFileSync(DEFAULT_PRICES_FILE, "utf8"));

describe("Prices file: packages/cli/src/cost/prices.us-east-1.json", () => {
  const book = loadPriceBook();

  it("is us-east-1 in USD and carries every price the model reads", () => {
    expect(book.region).toBe("us-east-1");
    expect(book.currency).toBe("USD");
    expect(Object.keys(book.prices).sort()).toEqual([...PRICE_IDS].sort());
  });

  it.each(PRICE_IDS)("%s has a unit, the date it was taken and at least one https source", (id) => {
    const price = book.prices[id];
    expect(price.unit.length).toBeGreaterThan(5);
    expect(price.takenOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(price.sources.length).toBeGreaterThan(0);
    for (const source of price.sources) {
      expect(source.url).toMatch(/^https:\/\//);
      expect(source.says.length).toBeGreaterThan(5);
    }
    expect(price.usd).toBeGreaterThanOrEqual(0);
    expect(price.per).toBeGreaterThan(0);
  });

  it("says which prices no source confirms, and why", () => {
    const unconfirmed = PRICE_IDS.filter((id) => book.prices[id].evidence === "none");
    expect(unconfirmed).toEqual(["dynamodb.pitr"]);
    for (const id of PRICE_IDS) expect(["aws", "secondary", "none"]).toContain(book.prices[id].evidence);
    expect(book.prices["dynamodb.pitr"].note).toMatch(/NOT CONFIRMED/);
  });

  it("holds the post-November-2024 on-demand DynamoDB prices", () => {
    expect(unitPrice(book, "dynamodb.write") * 1e6).toBeCloseTo(0.625, 10);
    expect(unitPrice(book, "dynamodb.read") * 1e6).toBeCloseTo(0.125, 10);
  });

  it("rejects a price without a unit, naming the entry and the fix", () => {
    const doc = raw();
    delete doc.prices["sqs.request"].unit;
    expect(() => parsePriceBook(doc, "test")).toThrow(InvalidPricesError);
    expect(() => parsePriceBook(doc, "test")).toThrow(/prices\["sqs.request"\]\.unit must say what one unit is/);
  });

  it("rejects a price without a date, evidence or a source, and a missing or unknown price", () => {
    const noEvidence = raw();
    noEvidence.prices["sqs.request"].evidence = "trust me";
    expect(() => parsePriceBook(noEvidence)).toThrow(/sqs.request"\]\.evidence must be one of aws, secondary, none/);
    const noDate = raw();
    noDate.prices["pipes.request"].takenOn = "last week";
    expect(() => parsePriceBook(noDate)).toThrow(/pipes.request"\]\.takenOn must be the date/);
    const noSource = raw();
    noSource.prices["xray.trace"].sources = [];
    expect(() => parsePriceBook(noSource)).toThrow(/xray.trace"\]\.sources must list at least one source/);
    const badUrl = raw();
    badUrl.prices["xray.trace"].sources[0].url = "aws pricing page";
    expect(() => parsePriceBook(badUrl)).toThrow(/sources\[0\]\.url must be an https URL/);
    const missing = raw();
    delete missing.prices["lambda.request"];
    expect(() => parsePriceBook(missing)).toThrow(/lambda.request"\] is missing/);
    const extra = raw();
    extra.prices["sns.publish"] = extra.prices["sqs.request"];
    expect(() => parsePriceBook(extra)).toThrow(/sns.publish"\] is not a price the model reads/);
  });
});
