import { EventPatternError } from "../errors";

/** An IP address as a number, with its family. */
interface ParsedIp {
  readonly value: bigint;
  readonly version: 4 | 6;
}

/** Parses `a.b.c.d` or an IPv6 address (with `::` compression and an optional dotted IPv4 tail). */
export function parseIp(text: string): ParsedIp | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

function parseIpv4(text: string): ParsedIp | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return { value, version: 4 };
}

function parseIpv6(text: string): ParsedIp | undefined {
  if (!text.includes(":")) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): string[] | undefined => {
    if (part === "") return [];
    const groups = part.split(":");
    const last = groups[groups.length - 1];
    if (last.includes(".")) {
      const v4 = parseIpv4(last);
      if (!v4) return undefined;
      groups.splice(groups.length - 1, 1, ((v4.value >> 16n) & 0xffffn).toString(16), (v4.value & 0xffffn).toString(16));
    }
    return groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g)) ? groups : undefined;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(parseInt(g, 16));
  return { value, version: 6 };
}

/** Compiles a `cidr` value (`10.0.0.0/24`, `2001:db8::/64`) to a network and mask. */
export function compileCidr(text: string, where: string): { network: bigint; mask: bigint; version: 4 | 6 } {
  const slash = text.lastIndexOf("/");
  const ip = slash < 0 ? undefined : parseIp(text.slice(0, slash));
  const bitsText = slash < 0 ? "" : text.slice(slash + 1);
  const width = ip?.version === 4 ? 32 : 128;
  if (!ip || !/^\d{1,3}$/.test(bitsText) || Number(bitsText) > width) {
    throw new EventPatternError(`${where}: "${text}" is not a CIDR block (expected e.g. "10.0.0.0/24" or "2001:db8::/64")`);
  }
  const bits = BigInt(Number(bitsText));
  const all = (1n << BigInt(width)) - 1n;
  const mask = (all << (BigInt(width) - bits)) & all;
  return { network: ip.value & mask, mask, version: ip.version };
}
