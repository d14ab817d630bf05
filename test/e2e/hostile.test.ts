/**
 * Hostile but legal messages (issue: the guarantee's holes). Each scenario publishes to SQS and asserts every
 * message's fate and every key's charge count: separators and quotes inside key parts, numbers past 15
 * significant digits or spelled differently, keys DynamoDB could never store, bodies nested too deep, a second
 * layer that finds a conflict the ledger forgot, and field types both layers must judge alike.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { businessKeyFromOperator } from "@effectively-once/contract";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { businessKeyText } from "@effectively-once/contract";
import { sourceQueueMaxBytes } from "@effectively-once/contract";
import { readLedger } from "./support/observe";
import type { RawMessage } from "./support/publish";
import { e2eSuite } from "./support/suite";

const suite = e2eSuite("hostile", {});

/** A payment body written by hand, so numbers keep their spelling (10.0, 1e1, 9007199254740993). */
function raw(tenantId: string, orderId: string, amountText: string, extra = ""): RawMessage {
  return {
    raw: `{"tenantId":${JSON.stringify(tenantId)},"orderId":${JSON.stringify(orderId)}${extra},"amount":${amountText},"currency":"EUR"}`,
    key: businessKeyText([tenantId, orderId]),
  };
}

suite.scenario(
  { id: "s16", title: "16. key parts holding the separator, quotes or lone surrogates never merge two keys" },
  async ({ tenant, payment, publish, settle }) => {
    const bodies = [
      { ...payment("c"), tenantId: `${tenant}#b` },
      { ...payment("b#c"), tenantId: tenant },
      { ...payment('q"'), tenantId: `${tenant}\\` },
      { ...payment('\\q"'), tenantId: tenant },
      { ...payment("\ud800"), tenantId: tenant },
      { ...payment("\ud801"), tenantId: tenant },
    ];
    const sent = await publish(bodies);
    const settled = await settle(sent);

    expect(new Set(sent.map((m) => m.key)).size).toBe(6);
    expect(Object.values(settled.fates)).toEqual(Array(6).fill("applied"));
    for (const message of sent) expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
  },
);

suite.scenario(
  { id: "s17", title: "17. numbers: 16-digit amounts conflict, 10 / 10.0 / 1e1 are one payload, 2^53 + 1 is refused naming the field" },
  async ({ tenant, publish, settle }) => {
    const [first] = await publish([raw(tenant, "o1", "1000000000000001")]);
    const [spelled] = await publish([raw(tenant, "o2", "10")]);
    expect((await settle([first, spelled])).fates).toEqual({ [first.messageId]: "applied", [spelled.messageId]: "applied" });

    const later = await publish([
      raw(tenant, "o1", "1000000000000002"),
      raw(tenant, "o2", "10.0"),
      raw(tenant, "o2", "1e1", ',"note":"other field order below"'),
      { raw: `{"currency":"EUR","amount":1E+1,"orderId":"o2","tenantId":${JSON.stringify(tenant)}}`, key: businessKeyText([tenant, "o2"]) },
      raw(tenant, "o3", "9007199254740993"),
    ]);
    const settled = await settle([first, spelled, ...later]);

    expect(settled.fates).toEqual({
      [first.messageId]: "applied",
      [spelled.messageId]: "applied",
      [later[0].messageId]: "quarantined:payload-mismatch",
      [later[1].messageId]: "duplicate",
      [later[2].messageId]: "duplicate",
      [later[3].messageId]: "duplicate",
      [later[4].messageId]: "quarantined:invalid-message",
    });
    expect(settled.effects[first.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    expect(settled.effects[spelled.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    const refused = settled.dlq.find((e) => e.originalMessageId === later[4].messageId)!;
    expect(refused.detail).toMatch(/^amount: an integer beyond 2\^53 - 1.*send it as a string$/);
  },
);

suite.scenario(
  { id: "s18", title: "18. keys the ledger could never store are invalid-message on the first delivery" },
  async ({ target, tenant, payment, publish, settle }) => {
    const emoji = "😀".repeat(128);
    // `note` carries the tenant: the suite recognises its own DLQ messages by it.
    const sent = await publish([payment("o".repeat(2100)), payment(emoji, { tenantId: emoji, note: tenant }), payment("ok")]);
    const settled = await settle(sent);

    expect(settled.fates).toEqual({ [sent[0].messageId]: "quarantined:invalid-message", [sent[1].messageId]: "quarantined:invalid-message", [sent[2].messageId]: "applied" });
    const details = Object.fromEntries(settled.dlq.map((e) => [e.originalMessageId, e.detail]));
    expect(details[sent[0].messageId]).toMatch(/^orderId: expected a string of 1 to 128 characters/);
    expect(details[sent[1].messageId]).toMatch(/^businessKey: 1031 bytes of canonical text, more than the 1024/);
    if (target.deliveries) for (const m of sent.slice(0, 2)) expect(target.deliveries.of(m.messageId)).toHaveLength(1);
  },
);

suite.scenario(
  { id: "s19", title: "19. a body nested as deep as the queue's size allows (about 3,000 levels) is quarantined as invalid-message on the first delivery" },
  async ({ target, tenant, publish, settle }) => {
    const levels = Math.floor((DEFAULTS.maxMessageBytes - 200) / 2);
    const deep = `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const [message] = await publish([raw(tenant, "o1", "1250", `,"extra":${deep}`)]);
    const settled = await settle([message]);

    expect(settled.fates).toEqual({ [message.messageId]: "quarantined:invalid-message" });
    expect(settled.dlq[0].detail).toBe("body: nested deeper than 64 levels");
    expect(settled.effects[message.key!]).toEqual({ charges: 0, calls: 0, callOutcomes: {} });
    if (target.deliveries) expect(target.deliveries.of(message.messageId)).toHaveLength(1);
  },
);

suite.scenario(
  { id: "s20", title: "20. the ledger forgot an applied key: Powertools' conflict is quarantined as payload-mismatch, not rejected" },
  async ({ target, payment, publish, settle }) => {
    const [first] = await publish([payment("o1", { amount: 1250 })]);
    expect((await settle([first])).fates).toEqual({ [first.messageId]: "applied" });
    // As after an operator's release or a lost Complete: the COMPLETED claim is gone, Powertools still remembers.
    await target.clients.documents.send(new DeleteCommand({ TableName: target.names.ledgerTable, Key: { pk: first.key, sk: target.names.operation } }));

    const [changed] = await publish([payment("o1", { amount: 9900 })]);
    const settled = await settle([first, changed]);

    expect(settled.fates).toEqual({ [first.messageId]: "applied", [changed.messageId]: "quarantined:payload-mismatch" });
    expect(settled.dlq[0].detail).toMatch(/^IdempotencyValidationError: /);
    expect(settled.effects[first.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    // Released after the conflict: the ledger holds nothing, so the next copy of the first payload is checked again.
    expect(await readLedger(target, first.key!)).toBeUndefined();
  },
);

suite.scenario(
  { id: "s21", title: "21. one fate for a wrong field type whatever arrives first: tenantId 4242 and amount \"10\" are invalid-message" },
  async ({ tenant, publish, settle }) => {
    const numericTenant: RawMessage = { raw: `{"tenantId":4242,"orderId":"${tenant}-n","amount":10,"currency":"EUR"}` };
    const [before] = await publish([raw(tenant, "o1", '"10"')]);
    const [valid, tenantNumber] = await publish([raw(tenant, "o1", "10"), numericTenant]);
    const [after] = await publish([raw(tenant, "o1", '"10"')]);
    const settled = await settle([before, valid, tenantNumber, after]);

    expect(settled.fates).toEqual({
      [before.messageId]: "quarantined:invalid-message",
      [valid.messageId]: "applied",
      [tenantNumber.messageId]: "quarantined:invalid-message",
      [after.messageId]: "quarantined:invalid-message",
    });
    const details = Object.fromEntries(settled.dlq.map((e) => [e.originalMessageId, e.detail]));
    expect(details[before.messageId]).toBe('amount: expected an integer >= 1, got "10"');
    expect(details[after.messageId]).toBe(details[before.messageId]);
    expect(details[tenantNumber.messageId]).toBe("tenantId: expected a string of 1 to 128 characters, got 4242");
  },
);

suite.scenario(
  { id: "s22", title: "22. NFC and NFD spellings are two keys (documented): each is applied once, and each is a duplicate of itself" },
  async ({ tenant, payment, publish, settle }) => {
    const nfc = { ...payment("caf\u00e9") };
    const nfd = { ...payment("cafe\u0301") };
    const sent = await publish([nfc, nfd]);
    const again = await publish([nfc, nfd]);
    const settled = await settle([...sent, ...again]);

    expect(sent[0].key).not.toBe(sent[1].key);
    expect(settled.fates).toEqual({
      [sent[0].messageId]: "applied",
      [sent[1].messageId]: "applied",
      [again[0].messageId]: "duplicate",
      [again[1].messageId]: "duplicate",
    });
    void tenant;
  },
);

suite.scenario(
  { id: "s23", title: "23. quarantine cannot fail on content: a body at the queue's size limit and a key SQS refuses in attributes are quarantined with their reason; a larger body is refused at send" },
  async ({ target, tenant, publish, settle }) => {
    // JSON escaping doubles each \" of the padding in the pipe's batch: the largest record one batch must hold.
    const head = `{"tenantId":${JSON.stringify(tenant)},"orderId":"big","amount":"ten","currency":"EUR","pad":"`;
    const padding = '\\"'.repeat(Math.floor((DEFAULTS.maxMessageBytes - head.length - 2) / 2));
    const big: RawMessage = { raw: `${head}${padding}"}` };
    expect(Buffer.byteLength(big.raw)).toBeLessThanOrEqual(DEFAULTS.maxMessageBytes);
    // U+FFFF is refused by SQS in bodies and attributes: the body carries its JSON escape, the key holds the character.
    const tenantFFFF = `${tenant}\uffff`;
    const withFFFF = (amount: number): RawMessage => ({
      raw: `{"tenantId":"${tenant}\\uffff","orderId":"o1","amount":${amount},"currency":"EUR"}`,
      key: businessKeyText([tenantFFFF, "o1"]),
    });
    const [first] = await publish([withFFFF(100)]);
    expect((await settle([first])).fates).toEqual({ [first.messageId]: "applied" });
    const [bigSent] = await publish([big]);
    const [conflict] = await publish([withFFFF(200)]);
    const settled = await settle([first, bigSent, conflict]);

    expect(settled.fates).toEqual({ [first.messageId]: "applied", [bigSent.messageId]: "quarantined:invalid-message", [conflict.messageId]: "quarantined:payload-mismatch" });
    const mismatch = settled.dlq.find((e) => e.originalMessageId === conflict.messageId)!;
    expect(businessKeyFromOperator({ key: mismatch.businessKey! })).toBe(first.key);
    expect(settled.dlq.find((e) => e.originalMessageId === bigSent.messageId)!.body).toBe(big.raw);
    // One byte more than the queue's maximum (maxMessageBytes + the redrive's room): SQS refuses it at send.
    const tooBig = `${big.raw.slice(0, -2)}${"x".repeat(sourceQueueMaxBytes(DEFAULTS.maxMessageBytes) + 1 - Buffer.byteLength(big.raw))}"}`;
    await expect(target.clients.sqs.send(new SendMessageCommand({ QueueUrl: target.names.queueUrl, MessageBody: tooBig }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
  },
);
