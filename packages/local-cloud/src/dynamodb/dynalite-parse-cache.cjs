// Memoizes dynalite's expression parsers (ConditionExpression, UpdateExpression, KeyConditionExpression, filters,
// projections). dynalite parses every expression of every request with a backtracking PEG parser; under load
// that was ~15% of its thread. Plain CommonJS so both placements (in process, worker thread) can load it.
//
// A parse result depends on the expression, the attribute names, the *types* of the attribute values (operand type
// checks) and, for BETWEEN and attribute_type, on the values themselves. Entries are keyed on all but the values;
// expressions with BETWEEN or attribute_type are never cached. A hit rebuilds a fresh tree with this request's
// value objects where the first parse had placed its own, and marks as used exactly the #names and :values the
// expression mentions (a successful parse resolves every one of them). Failed parses are never cached.
"use strict";

const VALUE_DEPENDENT = /between|attribute_type/i;
const NAME_TOKENS = /#[0-9a-zA-Z_]+/g;
const VALUE_TOKENS = /:[0-9a-zA-Z_]+/g;
const TYPES = ["S", "N", "B", "NULL", "BOOL", "SS", "NS", "BS", "L", "M"];
const MAX_ENTRIES = 2000;

/** A place in a cached tree where the request's attribute value goes. */
class ValueSlot {
  constructor(name) {
    this.name = name;
  }
}

function typeOf(value) {
  if (!value || typeof value !== "object") return "?";
  for (const type of TYPES) if (value[type] != null) return type;
  return "?";
}

function keyOf(tag, str, context) {
  const values = context.attrVals ? Object.keys(context.attrVals).sort().map((k) => `${k}=${typeOf(context.attrVals[k])}`).join(",") : "";
  return `${tag}\u0000${context.isKeyCondition ? 1 : 0}\u0000${str}\u0000${context.attrNames ? JSON.stringify(context.attrNames) : ""}\u0000${values}`;
}

/** The tree with this request's value objects replaced by slots (by identity: the parser returns them as is). */
function toRecipe(node, slots) {
  if (node === null || typeof node !== "object") return node;
  const slot = slots.get(node);
  if (slot) return slot;
  if (Array.isArray(node)) return node.map((item) => toRecipe(item, slots));
  const out = Object.create(Object.getPrototypeOf(node));
  for (const key of Object.keys(node)) out[key] = toRecipe(node[key], slots);
  return out;
}

function fromRecipe(node, values) {
  if (node === null || typeof node !== "object") return node;
  if (node instanceof ValueSlot) return values[node.name];
  if (Array.isArray(node)) return node.map((item) => fromRecipe(item, values));
  const out = Object.create(Object.getPrototypeOf(node));
  for (const key of Object.keys(node)) out[key] = fromRecipe(node[key], values);
  return out;
}

function markUsed(str, context) {
  for (const name of str.match(NAME_TOKENS) ?? []) if (context.unusedAttrNames) delete context.unusedAttrNames[name];
  for (const name of str.match(VALUE_TOKENS) ?? []) if (context.unusedAttrVals) delete context.unusedAttrVals[name];
}

function memoize(tag, parse, stats) {
  const cache = new Map();
  return function cachedParse(str, options) {
    const context = options && options.context;
    if (!context || typeof str !== "string" || VALUE_DEPENDENT.test(str)) return parse(str, options);
    const key = keyOf(tag, str, context);
    const recipe = cache.get(key);
    if (recipe !== undefined) {
      stats.hits += 1;
      markUsed(str, context);
      return fromRecipe(recipe, context.attrVals || {});
    }
    stats.misses += 1;
    const result = parse(str, options);
    if (result && typeof result === "object") {
      const slots = new Map();
      for (const [name, value] of Object.entries(context.attrVals || {})) if (value && typeof value === "object") slots.set(value, new ValueSlot(name));
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(key, toRecipe(result, slots));
    }
    return result;
  };
}

const PARSERS = ["conditionParser", "updateParser", "projectionParser"];
const installed = new WeakSet();

/**
 * Installs the cache on the parser modules dynalite's validations call (`parser.parse(str, { context })` looks the
 * function up on the module object at each call). `requireFn` resolves from where dynalite is installed.
 * Returns hit/miss counters. Idempotent.
 */
function installParseCache(requireFn) {
  const stats = { hits: 0, misses: 0 };
  for (const name of PARSERS) {
    const parser = requireFn(`dynalite/db/${name}`);
    if (installed.has(parser)) continue;
    installed.add(parser);
    parser.parse = memoize(name, parser.parse, stats);
  }
  return stats;
}

module.exports = { installParseCache, memoize };
