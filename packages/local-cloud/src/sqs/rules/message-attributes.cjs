"use strict";
// SQS's rules for message attributes and their MD5 (SQS Developer Guide, "Amazon SQS message attributes"; SendMessage
// API reference): the one copy, loaded by the local SQS's fidelity layer (../fidelity/install.mjs, receive.mjs,
// send.mjs) and by the simulation's SQS (tools/sim/src/sqs/service.ts, through the `/sqs-rules` entry). Wording AWS is recorded
// to use (empty value, bad type, too many) is kept as is; the rest is ours and names the rule broken. Attribute maps
// are read with Object.keys: an own `__proto__` entry (JSON.parse, Object.fromEntries) is an attribute like any other.
const { createHash } = require("node:crypto");

/** AWS's valid characters (SendMessage): #x9 #xA #xD #x20–#xD7FF #xE000–#xFFFD #x10000–#x10FFFF (a lone surrogate is none). */
const INVALID_SQS_CHARACTER = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const MAX_ATTRIBUTES = 10;
const MAX_NAME_LENGTH = 256;
const MAX_TYPE_LENGTH = 256;
// Alphanumerics, `_`, `-`, `.` (documented); Latin-1 supplement and Latin Extended-A letters are accepted by AWS too
// (observed, noted in LocalStack's SQS provider).
const NAME_CHARACTERS = /^[A-Za-z0-9_.\-\u00C0-\u017F]+$/;
const TYPE = /^(String|Number|Binary)(\..+)?$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The first broken rule in one message's attributes (the SDK's shape), as `{ code, message }`, or undefined. */
function checkMessageAttributes(attributes) {
  if (attributes === undefined || attributes === null) return undefined;
  const names = Object.keys(attributes);
  if (names.length > MAX_ATTRIBUTES) {
    return invalid(`Number of message attributes [${names.length}] exceeds the allowed maximum [${MAX_ATTRIBUTES}].`);
  }
  for (const name of names) {
    const problem = checkName(name) ?? checkValue(name, attributes[name] ?? {});
    if (problem) return invalid(problem);
  }
  return undefined;
}

function checkName(name) {
  if (name === "") return "The request must contain non-empty message attribute name.";
  if (name.length > MAX_NAME_LENGTH) return `Message (user) attribute name '${name}' is too long: at most ${MAX_NAME_LENGTH} characters.`;
  if (!NAME_CHARACTERS.test(name)) return `Message (user) attribute name '${name}' is invalid: use only letters, digits, '_', '-' and '.'.`;
  if (/^(aws|amazon)\./i.test(name)) return `Message (user) attribute name '${name}' is invalid: the prefixes 'AWS.' and 'Amazon.' are reserved.`;
  if (name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
    return `Message (user) attribute name '${name}' is invalid: it must not start or end with '.' or contain '..'.`;
  }
  return undefined;
}

function checkValue(name, value) {
  const type = value.DataType;
  if (typeof type !== "string" || type === "") return `The message attribute '${name}' must contain non-empty message attribute type.`;
  const match = TYPE.exec(type);
  if (!match || type.length > MAX_TYPE_LENGTH) {
    return `The type of message (user) attribute '${name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String.`;
  }
  const base = match[1];
  const text = base === "Binary" ? binaryText(value.BinaryValue) : value.StringValue;
  if (typeof text !== "string" || text === "") return `Message (user) attribute '${name}' must contain a non-empty value of type '${base}'.`;
  if (base !== "Binary" && INVALID_SQS_CHARACTER.test(text)) {
    return `Message (user) attribute '${name}' value contains characters SQS does not accept (see SendMessage).`;
  }
  if (base === "Number" && !validNumber(text)) {
    return `Message (user) attribute '${name}' of type Number must be a number with at most 38 significant digits between -10^126 and 10^126 (magnitude at least 10^-128).`;
  }
  return undefined;
}

/** A binary value as the wire carries it (base64 text) or as an SDK caller holds it (bytes). */
function binaryText(value) {
  if (value === undefined || value === null || typeof value === "string") return value;
  return Buffer.from(value).toString("base64");
}

function validNumber(text) {
  if (!NUMBER.test(text)) return false;
  const [mantissa] = text.replace(/^[+-]/, "").split(/[eE]/);
  if (mantissa.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length > 38) return false;
  const magnitude = Math.abs(Number(text));
  return magnitude === 0 || (magnitude >= 1e-128 && magnitude <= 1e126);
}

const invalid = (message) => ({ code: "InvalidParameterValue", message });

/** What the attributes add to a message's size: names, types and values (UTF-8; a binary value's bytes). */
function attributeBytes(attributes) {
  let bytes = 0;
  for (const name of Object.keys(attributes ?? {})) {
    const v = attributes[name] ?? {};
    const value = v.BinaryValue === undefined ? Buffer.byteLength(v.StringValue ?? "") : valueBytes(v.BinaryValue).length;
    bytes += Buffer.byteLength(name) + Buffer.byteLength(v.DataType ?? "") + value;
  }
  return bytes;
}

const valueBytes = (binary) => (typeof binary === "string" ? Buffer.from(binary, "base64") : Buffer.from(binary));

/**
 * MD5OfMessageAttributes as SQS computes it: attributes sorted by name, each as length-prefixed (4 bytes, big-endian)
 * name and type, a transport byte (1 string or number, 2 binary), and the length-prefixed value; "" for none.
 */
function md5OfMessageAttributes(attributes) {
  const names = Object.keys(attributes ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) return "";
  const hash = createHash("md5");
  const field = (bytes) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const name of names) {
    const v = attributes[name] ?? {};
    const binary = String(v.DataType ?? "").startsWith("Binary");
    field(Buffer.from(name));
    field(Buffer.from(v.DataType ?? ""));
    hash.update(Buffer.from([binary ? 2 : 1]));
    field(binary ? valueBytes(v.BinaryValue ?? "") : Buffer.from(v.StringValue ?? ""));
  }
  return hash.digest("hex");
}

module.exports = { INVALID_SQS_CHARACTER, MAX_ATTRIBUTES, checkMessageAttributes, attributeBytes, md5OfMessageAttributes };
