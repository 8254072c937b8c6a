import { isIPv4, isIPv6 } from 'node:net'

/** True for an `allowed_ips` entry that `assertIpAllowed` (access/keys.ts) understands. */
export function isIpEntry(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/')
  if (extra !== undefined) return false
  const v4 = isIPv4(address)
  if (!v4 && !isIPv6(address)) return false
  if (prefix === undefined) return true
  const bits = Number(prefix)
  return /^\d+$/.test(prefix) && bits >= 0 && bits <= (v4 ? 32 : 128)
}
