import { decodeSegment, idPrefix, isId } from './ids.js'

/**
 * Ids of a replay (CONTRACT.md section 22): an id a hosted answer held maps to the id at the same
 * place of the local answer, and a later request that names it (in its path, query or body) is sent
 * with its local counterpart. A request naming a hosted id that was never mapped cannot be sent.
 */
export class IdTranslation {
  private readonly toLocal = new Map<string, string>()

  /** Walks a hosted answer and the local answer to the same request side by side. */
  learn(hosted: unknown, local: unknown): void {
    if (typeof hosted === 'string' && typeof local === 'string') {
      if (isId(hosted) && isId(local) && idPrefix(hosted) === idPrefix(local) && !this.toLocal.has(hosted)) this.toLocal.set(hosted, local)
      return
    }
    if (Array.isArray(hosted) && Array.isArray(local)) {
      for (let i = 0; i < Math.min(hosted.length, local.length); i++) this.learn(hosted[i], local[i])
      return
    }
    if (isObject(hosted) && isObject(local)) for (const name of Object.keys(hosted)) if (name in local) this.learn(hosted[name], local[name])
  }

  /** A recorded value with its hosted ids replaced; the ids it names that no answer held go into `unmapped`. */
  translate<T>(value: T, unmapped: Set<string>): T {
    if (typeof value === 'string') return (isId(value) ? this.idFor(value, unmapped) : value) as T
    if (Array.isArray(value)) return value.map((item) => this.translate(item, unmapped)) as T
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, this.translate(item, unmapped)])) as T
    return value
  }

  /** `/v1/wallets/wal_hosted/balance` → `/v1/wallets/wal_local/balance`. */
  translatePath(path: string, unmapped: Set<string>): string {
    return path
      .split('/')
      .map((segment) => {
        const decoded = decodeSegment(segment)
        return isId(decoded) ? encodeURIComponent(this.idFor(decoded, unmapped)) : segment
      })
      .join('/')
  }

  private idFor(id: string, unmapped: Set<string>): string {
    const local = this.toLocal.get(id)
    if (local === undefined) unmapped.add(id)
    return local ?? id
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
