// AWS's rules for message attributes (SQS Developer Guide, "Amazon SQS message attributes"; SendMessage API
// reference), which fauxqs 1.9.2 does not check. Wording AWS is recorded to use (in public issue threads) is kept
// as is; the rest is ours and says which rule was broken.
import { INVALID_SQS_CHARACTER } from "./fauxqs-patches.mjs";

const MAX_ATTRIBUTES = 10;
const MAX_NAME_LENGTH = 256;
const MAX_TYPE_LENGTH = 256;
// Alphanumerics, `_`, `-`, `.` (documented); Latin-1 supplement and Latin Extended-A letters are accepted by
// AWS too (observed, noted in LocalStack's SQS provider).
const NAME_CHARACTERS = /^[A-Za-z0-9_.\-\u00C0-\u017F]+$/;
const TYPE = /^(String|Number|Binary)(\..+)?$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The first broken rule in one message's attributes, as `{ code, message }`, or undefined when all hold. */
export function checkMessageAttributes(attributes) {
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
  if (name.length > MAX_NAME_LENGTH) {
    return `Message (user) attribute name '${name}' is too long: at most ${MAX_NAME_LENGTH} characters.`;
  }
  if (!NAME_CHARACTERS.test(name)) {
    return `Message (user) attribute name '${name}' is invalid: use only letters, digits, '_', '-' and '.'.`;
  }
  if (/^(aws|amazon)\./i.test(name)) {
    return `Message (user) attribute name '${name}' is invalid: the prefixes 'AWS.' and 'Amazon.' are reserved.`;
  }
  if (name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
    return `Message (user) attribute name '${name}' is invalid: it must not start or end with '.' or contain '..'.`;
  }
  return undefined;
}

function checkValue(name, value) {
  const type = value.DataType;
  if (typeof type !== "string" || type === "") {
    return `The message attribute '${name}' must contain non-empty message attribute type.`;
  }
  const match = TYPE.exec(type);
  if (!match || type.length > MAX_TYPE_LENGTH) {
    return (
      `The type of message (user) attribute '${name}' is invalid. ` +
      "You must use only the following supported type prefixes: Binary, Number, String."
    );
  }
  const base = match[1];
  const text = base === "Binary" ? value.BinaryValue : value.StringValue;
  if (typeof text !== "string" || text === "") {
    return `Message (user) attribute '${name}' must contain a non-empty value of type '${base}'.`;
  }
  if (base !== "Binary" && INVALID_SQS_CHARACTER.test(text)) {
    return `Message (user) attribute '${name}' value contains characters SQS does not accept (see SendMessage).`;
  }
  if (base === "Number" && !validNumber(text)) {
    return (
      `Message (user) attribute '${name}' of type Number must be a number with at most 38 significant digits ` +
      "between -10^126 and 10^126 (magnitude at least 10^-128)."
    );
  }
  return undefined;
}

function validNumber(text) {
  if (!NUMBER.test(text)) return false;
  const [mantissa] = text.replace(/^[+-]/, "").split(/[eE]/);
  const digits = mantissa.replace(".", "").replace(/^0+/, "");
  if (digits.replace(/0+$/, "").length > 38) return false;
  const magnitude = Math.abs(Number(text));
  return magnitude === 0 || (magnitude >= 1e-128 && magnitude <= 1e126);
}

function invalid(message) {
  return { code: "InvalidParameterValue", message };
}
