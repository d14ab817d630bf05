// JSON protocol responses from fauxqs → the XML the SQS query protocol returns, with AWS's namespace and element
// names (SQS 2012-11-05 service model: flattened lists and maps, one `<Action>Result` wrapper).
import { randomUUID } from "node:crypto";
import { spell } from "./aws-errors.mjs";

const QUERY_NO_QUEUE = "The specified queue does not exist for this wsdl version.";

export const SQS_XML_NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

/** Actions with no output shape: AWS answers only `<ResponseMetadata>`. */
const NO_RESULT = new Set([
  "AddPermission", "ChangeMessageVisibility", "DeleteMessage", "DeleteQueue", "PurgeQueue", "RemovePermission",
  "SetQueueAttributes", "TagQueue", "UntagQueue",
]);

/** JSON member → [element name of each item, kind]. `Successful` depends on the action (see below). */
const FLATTENED = {
  Messages: ["Message", "list"],
  QueueUrls: ["QueueUrl", "list"],
  queueUrls: ["QueueUrl", "list"],
  Failed: ["BatchResultErrorEntry", "list"],
  StringListValues: ["StringListValue", "list"],
  BinaryListValues: ["BinaryListValue", "list"],
  Attributes: ["Attribute", "map", "Name"],
  MessageAttributes: ["MessageAttribute", "map", "Name"],
  Tags: ["Tag", "map", "Key"],
};

/** A successful JSON result (already parsed) → the query protocol's XML document. */
export function resultToXml(action, result) {
  const requestId = randomUUID();
  const inner = NO_RESULT.has(action) ? "" : `<${action}Result>${members(action, result ?? {})}</${action}Result>`;
  return (
    `<?xml version="1.0"?><${action}Response xmlns="${SQS_XML_NAMESPACE}">${inner}` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`
  );
}

/** A JSON protocol error (`{__type, message}`, or fastify's own `{statusCode, error, message}`) → XML. */
export function errorToXml(error, statusCode) {
  const jsonCode = typeof error?.__type === "string" ? error.__type.split("#").pop() : undefined;
  const code = jsonCode ? spell(jsonCode).query : statusCode >= 500 ? "InternalError" : "InvalidRequest";
  const type = statusCode >= 500 ? "Receiver" : "Sender";
  // The query protocol words a missing queue its own way (recorded on AWS).
  const message = code === spell("QueueDoesNotExist").query ? QUERY_NO_QUEUE : String(error?.message ?? "");
  return (
    `<?xml version="1.0"?><ErrorResponse xmlns="${SQS_XML_NAMESPACE}"><Error><Type>${type}</Type>` +
    `<Code>${escape(code)}</Code><Message>${escape(message)}</Message><Detail/></Error>` +
    `<RequestId>${randomUUID()}</RequestId></ErrorResponse>`
  );
}

function members(action, object) {
  let xml = "";
  for (const [name, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue;
    const flat = name === "Successful" ? [`${action}ResultEntry`, "list"] : FLATTENED[name];
    if (flat?.[1] === "list" && Array.isArray(value)) {
      for (const item of value) xml += element(flat[0], item, action);
    } else if (flat?.[1] === "map" && typeof value === "object") {
      for (const [key, entry] of Object.entries(value)) {
        xml += `<${flat[0]}><${flat[2]}>${escape(key)}</${flat[2]}>${element("Value", entry, action)}</${flat[0]}>`;
      }
    } else {
      xml += element(name, value, action);
    }
  }
  return xml;
}

function element(name, value, action) {
  const content = typeof value === "object" ? members(action, value) : escape(String(value));
  return `<${name}>${content}</${name}>`;
}

/** XML text escaping; CR is escaped too, or XML parsers turn it into LF and the body (and its MD5) changes. */
function escape(text) {
  return text.replace(/[&<>"\r]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#xD;" })[c]);
}
