import { compileEventPattern, EventPatternError, matchesEventPattern } from "@effectively-once/contract/pipe-filter";

/**
 * Examples from the AWS EventBridge user guide ("Content filtering in Amazon EventBridge event patterns",
 * "Matching null values and empty strings", "Arrays in event patterns", "Create event patterns"), each with the
 * result the guide states. Rows marked [LS] are edge cases LocalStack's events tests record against real AWS
 * (TestEventPattern snapshots in localstack/tests/aws/services/events/event_pattern_templates).
 */
const EC2_EVENT = {
  version: "0",
  id: "7bf73129-1428-4cd3-a780-95db273d1602",
  "detail-type": "EC2 Instance State-change Notification",
  source: "aws.ec2",
  account: "123456789012",
  time: "2015-11-11T21:29:54Z",
  region: "us-east-1",
  resources: ["arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111"],
  detail: { "instance-id": "i-abcd1111", state: "pending" },
};

const NULL_EVENT = {
  "detail-type": "EC2 Instance Launch Successful",
  source: "aws.autoscaling",
  resources: [],
  detail: { eventVersion: "", responseElements: null },
};

const cases: [name: string, pattern: object, event: object, matches: boolean][] = [
  // Create event patterns: exact values, nesting, arrays as OR
  ["exact values in nested fields", { source: ["aws.ec2"], detail: { state: ["pending"] } }, EC2_EVENT, true],
  ["exact value differs", { source: ["aws.ec2"], detail: { state: ["terminated"] } }, EC2_EVENT, false],
  ["array of values is an OR", { source: ["aws.ec2", "aws.fargate"] }, EC2_EVENT, true],
  ["field names must appear with the same nesting", { state: ["pending"] }, EC2_EVENT, false],
  ["matching is case-sensitive", { source: ["AWS.EC2"] }, EC2_EVENT, false],
  ["a string does not equal a number", { detail: { n: ["300"] } }, { detail: { n: 300 } }, false],
  // Arrays page: the intersection of pattern values and event array values must be non-empty
  [
    "event array intersects pattern array",
    { resources: ["arn:aws:ec2:us-east-1:111122223333:instance/i-b188560f", "arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111"] },
    EC2_EVENT,
    true,
  ],
  ["event array without intersection", { resources: ["arn:aws:ec2:us-east-1:444455556666:instance/i-b188560f"] }, EC2_EVENT, false],
  // Null values and empty strings
  ["empty string matches empty string", { detail: { eventVersion: [""] } }, NULL_EVENT, true],
  ["null matches null", { detail: { responseElements: [null] } }, NULL_EVENT, true],
  ["empty string does not match null", { detail: { responseElements: [""] } }, NULL_EVENT, false],
  ["null does not match empty string", { detail: { eventVersion: [null] } }, NULL_EVENT, false],
  ["[LS] null does not match an empty array", { resources: [null] }, NULL_EVENT, false],
  // Prefix / suffix
  ["prefix", { time: [{ prefix: "2017-10-02" }] }, { time: "2017-10-02T18:43:48Z" }, true],
  ["prefix does not match", { time: [{ prefix: "2017-10-02" }] }, { time: "2017-10-03T18:43:48Z" }, false],
  ["prefix equals-ignore-case", { service: [{ prefix: { "equals-ignore-case": "eventb" } }] }, { service: "EventBridge" }, true],
  ["suffix", { FileName: [{ suffix: ".png" }] }, { FileName: "photo.png" }, true],
  ["suffix does not match", { FileName: [{ suffix: ".png" }] }, { FileName: "photo.jpg" }, false],
  ["suffix equals-ignore-case", { FileName: [{ suffix: { "equals-ignore-case": ".png" } }] }, { FileName: "image.PNG" }, true],
  // Anything-but
  ["anything-but string", { detail: { state: [{ "anything-but": "initializing" }] } }, { detail: { state: "running" } }, true],
  ["anything-but string excluded", { detail: { state: [{ "anything-but": "initializing" }] } }, { detail: { state: "initializing" } }, false],
  ["anything-but number", { detail: { "x-limit": [{ "anything-but": 123 }] } }, { detail: { "x-limit": 124 } }, true],
  ["anything-but number excluded", { detail: { "x-limit": [{ "anything-but": 123 }] } }, { detail: { "x-limit": 123 } }, false],
  ["anything-but list of strings", { detail: { state: [{ "anything-but": ["stopped", "overloaded"] }] } }, { detail: { state: "stopped" } }, false],
  ["anything-but list, other value", { detail: { state: [{ "anything-but": ["stopped", "overloaded"] }] } }, { detail: { state: "running" } }, true],
  ["anything-but list of numbers", { detail: { "x-limit": [{ "anything-but": [100, 200, 300] }] } }, { detail: { "x-limit": 200 } }, false],
  ["anything-but prefix", { detail: { state: [{ "anything-but": { prefix: "init" } }] } }, { detail: { state: "initializing" } }, false],
  ["anything-but prefix, other value", { detail: { state: [{ "anything-but": { prefix: "init" } }] } }, { detail: { state: "running" } }, true],
  ["anything-but suffix", { FileName: [{ "anything-but": { suffix: ".png" } }] }, { FileName: "photo.png" }, false],
  ["anything-but suffix, other value", { FileName: [{ "anything-but": { suffix: ".png" } }] }, { FileName: "photo.txt" }, true],
  ["anything-but equals-ignore-case", { state: [{ "anything-but": { "equals-ignore-case": "initializing" } }] }, { state: "INITIALIZING" }, false],
  ["anything-but wildcard", { FilePath: [{ "anything-but": { wildcard: "*/lib/*" } }] }, { FilePath: "/usr/lib/x.so" }, false],
  ["[LS] anything-but matches a null value", { detail: { state: [{ "anything-but": "initializing" }] } }, { detail: { state: null } }, true],
  ["[LS] anything-but needs the field", { detail: { state: [{ "anything-but": "initializing" }] } }, { detail: {} }, false],
  // Numeric
  [
    "numeric ranges and equality, all fields",
    {
      detail: {
        "c-count": [{ numeric: [">", 0, "<=", 5] }],
        "d-count": [{ numeric: ["<", 10] }],
        "x-limit": [{ numeric: ["=", 3.018e2] }],
      },
    },
    { detail: { "c-count": 5, "d-count": 9, "x-limit": 301.8 } },
    true,
  ],
  ["numeric lower bound is exclusive", { detail: { "c-count": [{ numeric: [">", 0, "<=", 5] }] } }, { detail: { "c-count": 0 } }, false],
  ["[LS] numeric does not match a numeric string", { number: [{ numeric: [">", 100] }] }, { number: "300" }, false],
  ["[LS] numeric does not match null", { number: [{ numeric: [">", 100] }] }, { number: null }, false],
  // IP address
  ["cidr v4", { detail: { sourceIPAddress: [{ cidr: "10.0.0.0/24" }] } }, { detail: { sourceIPAddress: "10.0.0.255" } }, true],
  ["cidr v4 outside", { detail: { sourceIPAddress: [{ cidr: "10.0.0.0/24" }] } }, { detail: { sourceIPAddress: "10.0.1.1" } }, false],
  ["[LS] cidr v6", { ip: [{ cidr: "2001:db8:1234:1a00::/64" }] }, { ip: "2001:0db8:1234:1a00:0000:0000:0000:0000" }, true],
  // Exists (leaf nodes only)
  ["exists true", { detail: { state: [{ exists: true }] } }, EC2_EVENT, true],
  ["exists true, field missing", { detail: { state: [{ exists: true }] } }, { detail: { "c-count": { c1: 100 } } }, false],
  ["exists false, field missing", { detail: { state: [{ exists: false }] } }, { detail: { "c-count": { c1: 100 } } }, true],
  ["exists false, field present", { detail: { state: [{ exists: false }] } }, EC2_EVENT, false],
  ["[LS] exists does not work on intermediate nodes", { detail: [{ exists: true }] }, EC2_EVENT, false],
  ["[LS] exists on an empty array", { resources: [{ exists: true }] }, NULL_EVENT, false],
  // Equals-ignore-case
  [
    "equals-ignore-case",
    { "detail-type": [{ "equals-ignore-case": "ec2 instance state-change notification" }] },
    EC2_EVENT,
    true,
  ],
  // Wildcard
  [
    "wildcard",
    { EventBusArn: [{ wildcard: "arn:aws:events:us-east-1:*:event-bus/*" }] },
    { EventBusArn: "arn:aws:events:us-east-1:123456789012:event-bus/myEventBus" },
    true,
  ],
  ["wildcard does not match", { FileName: [{ wildcard: "dir/*.png" }] }, { FileName: "dir/photo.jpg" }, false],
  ["[LS] wildcard across repeated segments", { f: [{ wildcard: "/Users/*/dir/dir/doc.txt" }] }, { f: "/Users/u/dir/dir/doc.txt" }, true],
  // Complex example and $or
  [
    "complex example with multiple matching",
    {
      time: [{ prefix: "2017-10-02" }],
      detail: {
        state: [{ "anything-but": "initializing" }],
        "c-count": [{ numeric: [">", 0, "<=", 5] }],
        "d-count": [{ numeric: ["<", 10] }],
        "x-limit": [{ "anything-but": [100, 200, 300] }],
      },
    },
    { time: "2017-10-02T00:00:00Z", detail: { state: "running", "c-count": 3, "d-count": 1, "x-limit": 150 } },
    true,
  ],
  [
    "$or matches when one alternative matches",
    {
      detail: {
        $or: [{ "c-count": [{ numeric: [">", 0, "<=", 5] }] }, { "d-count": [{ numeric: ["<", 10] }] }, { "x-limit": [{ numeric: ["=", 3.018e2] }] }],
      },
    },
    { detail: { "c-count": 10, "d-count": 20, "x-limit": 301.8 } },
    true,
  ],
  [
    "$or fails when no alternative matches",
    { detail: { $or: [{ "c-count": [{ numeric: [">", 0, "<=", 5] }] }, { "d-count": [{ numeric: ["<", 10] }] }] } },
    { detail: { "c-count": 10, "d-count": 20 } },
    false,
  ],
  ["[LS] dotted event key equals nested path", { detail: { state: { status: ["running"] } } }, { detail: { "state.status": "running" } }, true],
  ["[LS] arrays of objects are searched element by element", { d: { a: { id: [{ exists: true }] } } }, { d: { a: [{ k: 1 }, { id: "x" }] } }, true],
];

describe("Function: matchesEventPattern", () => {
  it.each(cases)("%s", (_name, pattern, event, expected) => {
    // Arrange
    const compiled = compileEventPattern(JSON.stringify(pattern));
    // Act
    const result = matchesEventPattern(compiled, event);
    // Assert
    expect(result).toBe(expected);
  });
});

describe("Function: compileEventPattern", () => {
  const invalid: [name: string, pattern: string][] = [
    ["not JSON", "{source:"],
    ["not an object", '["aws.ec2"]'],
    ["a bare value instead of an array", '{"source": "aws.ec2"}'],
    ["an empty matcher array", '{"resources": []}'],
    ["an operator in the wrong case", '{"k": [{"EXISTS": true}]}'],
    ["two operators in one object", '{"k": [{"prefix": "a", "suffix": "b"}]}'],
    ["numeric without a value", '{"k": [{"numeric": [">", 0, "<"]}]}'],
    ["numeric with two lower bounds", '{"k": [{"numeric": [">", 0, ">", 0]}]}'],
    ["numeric not a list", '{"k": [{"numeric": 10}]}'],
    ["numeric beyond 5e9", '{"k": [{"numeric": [">", 6e9]}]}'],
    ["anything-but null", '{"k": [{"anything-but": null}]}'],
    ["anything-but list with null", '{"k": [{"anything-but": ["a", null]}]}'],
    ["anything-but empty prefix", '{"k": [{"anything-but": {"prefix": ""}}]}'],
    ["anything-but prefix ignoring case", '{"k": [{"anything-but": {"prefix": {"equals-ignore-case": "a"}}}]}'],
    ["equals-ignore-case with a list", '{"k": [{"equals-ignore-case": ["a"]}]}'],
    ["prefix with a list", '{"k": [{"prefix": ["a"]}]}'],
    ["consecutive wildcards", '{"k": [{"wildcard": "a**b"}]}'],
    ["a bad CIDR", '{"k": [{"cidr": "bad-filter"}]}'],
    ["$or that is not a list of objects", '{"$or": {"a": ["b"]}}'],
  ];

  it.each(invalid)("refuses %s", (_name, pattern) => {
    expect(() => compileEventPattern(pattern)).toThrow(EventPatternError);
  });

  it("keeps the last of a duplicated key, as AWS documents", () => {
    // Arrange
    const pattern = '{"detail": {"location": [{"prefix": "us-"}], "location": [{"anything-but": "us-east"}]}}';
    // Act
    const compiled = compileEventPattern(pattern);
    // Assert: only anything-but applies, so "eu-west" (no us- prefix) matches
    expect(matchesEventPattern(compiled, { detail: { location: "eu-west" } })).toBe(true);
    expect(matchesEventPattern(compiled, { detail: { location: "us-east" } })).toBe(false);
  });

  it("reports the operators a pattern uses", () => {
    const compiled = compileEventPattern('{"a": [{"prefix": "x"}], "$or": [{"b": [1]}, {"c": [{"anything-but": {"suffix": "y"}}]}]}');
    expect([...compiled.operators].sort()).toEqual(["$or", "anything-but/suffix", "equals", "prefix"]);
  });
});
