/**
 * SQS's rules for message attributes, as AWS documents them (SendMessage; "Amazon SQS message attributes") and as the
 * local cloud's fauxqs patch applies them (`packages/local-cloud/src/sqs/fidelity/message-attributes.mjs`): the simulated queue and the
 * model share them, since they are the environment's, not the pipeline's. Names are outside text, so attribute maps
 * are built with `Object.fromEntries` (an own `__proto__` entry stays an entry) and read as pairs.
 */
import { createHash } from "node:crypto";
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { MessageAttribute } from "../scenario/shape";

/** SQS: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF (a lone surrogate is none of these). */
export const SQS_INVALID_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const MAX_ATTRIBUTES = 10;
// Letters, digits, `_`, `-`, `.`; AWS also accepts Latin-1 supplement and Latin Extended-A letters.
const NAME = /^[A-Za-z0-9_.\-\u00C0-\u017F]{1,256}$/;
const TYPE = /^(String|Number|Binary)(\..+)?$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function validNumber(text: string): boolean {
  if (!NUMBER.test(text)) return false;
  const [mantissa] = text.replace(/^[+-]/, "").split(/[eE]/);
  if (mantissa.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length > 38) return false;
  const magnitude = Math.abs(Number(text));
  return magnitude === 0 || (magnitude >= 1e-128 && magnitude <= 1e126);
}

/** The first rule the attributes break (SQS answers InvalidParameterValue), or undefined. */
export function attributeProblem(attributes: readonly MessageAttribute[]): string | undefined {
  if (attributes.length > MAX_ATTRIBUTES) return `Number of message attributes [${attributes.length}] exceeds the allowed maximum [${MAX_ATTRIBUTES}].`;
  const seen = new Set<string>();
  for (const { name, dataType, value } of attributes) {
    if (seen.has(name)) return `Message attribute name '${name}' is given twice.`;
    seen.add(name);
    if (!NAME.test(name) || /^(aws|amazon)\./i.test(name) || name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
      return `Message (user) attribute name '${name}' is invalid.`;
    }
    const type = TYPE.exec(dataType);
    if (!type || dataType.length > 256) return `The type of message (user) attribute '${name}' is invalid.`;
    if (value === "") return `Message (user) attribute '${name}' must contain a non-empty value of type '${type[1]}'.`;
    if (type[1] !== "Binary" && SQS_INVALID_CHARACTER.test(value)) return `Message (user) attribute '${name}' value contains characters SQS does not accept.`;
    if (type[1] === "Number" && !validNumber(value)) return `Can't cast the value of message (user) attribute '${name}' to a number.`;
  }
  return undefined;
}

/** What the attributes add to a message's size: names, types and values (UTF-8). */
export function attributeBytes(attributes: readonly MessageAttribute[]): number {
  return attributes.reduce((n, a) => n + Buffer.byteLength(a.name) + Buffer.byteLength(a.dataType) + Buffer.byteLength(a.value), 0);
}

/** The SDK's shape, `{name: {DataType, StringValue}}` (strings only: the generator draws no binary values). */
export function toSdkAttributes(attributes: readonly MessageAttribute[]): Record<string, MessageAttributeValue> {
  return Object.fromEntries(attributes.map((a) => [a.name, { DataType: a.dataType, StringValue: a.value }]));
}

/** Pairs from the SDK's shape (a binary value as base64 text). */
export function fromSdkAttributes(attributes: Record<string, MessageAttributeValue> | undefined): MessageAttribute[] {
  return Object.entries(attributes ?? {}).map(([name, v]) => ({
    name,
    dataType: v.DataType ?? "",
    value: v.StringValue ?? (v.BinaryValue === undefined ? "" : Buffer.from(v.BinaryValue).toString("base64")),
  }));
}

/**
 * MD5OfMessageAttributes as SQS computes it: attributes sorted by name, each as length-prefixed (4 bytes, big-endian)
 * name and type, a transport byte (1 string, 2 binary), and the length-prefixed value.
 */
export function md5OfAttributes(attributes: Record<string, MessageAttributeValue>): string {
  const hash = createHash("md5");
  const field = (bytes: Buffer): void => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const [name, v] of Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    field(Buffer.from(name));
    field(Buffer.from(v.DataType ?? ""));
    const binary = v.BinaryValue !== undefined;
    hash.update(Buffer.from([binary ? 2 : 1]));
    field(binary ? Buffer.from(v.BinaryValue as Uint8Array) : Buffer.from(v.StringValue ?? ""));
  }
  return hash.digest("hex");
}
