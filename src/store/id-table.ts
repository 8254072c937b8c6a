/**
 * Records by their id, for an index of up to millions of records that are added and never removed
 * (payments). Open addressing with linear probing over typed arrays (a record's position, and its
 * hash, so that a lookup compares hashes before ids and growing never hashes an id again); the
 * records themselves in blocks of 64k. Loading a million payments into a Map cost about a
 * microsecond an insert, most of it the Map's own bookkeeping; this costs a tenth of that.
 *
 * Nothing here is ever reallocated whole: growing starts a table twice the size (typed arrays, which
 * cost nothing to allocate) and moves the old one into it a few slots at a time, with each later
 * call. At a million records a Map's growth held the event loop for a tenth of a second, and so did
 * allocating a plain array of two million slots.
 */
export class IdTable<R> {
  private readonly blocks: R[][] = []
  private count = 0
  private table: Table
  /** The table being moved into `table`, and how far. */
  private previous: Table | undefined
  private moved = 0

  constructor(
    private readonly idOf: (record: R) => string,
    capacity = 16,
  ) {
    this.table = emptyTable(2 ** Math.ceil(Math.log2(Math.max(capacity, 8))))
  }

  get size(): number {
    return this.count
  }

  get(id: string): R | undefined {
    this.moveSome()
    const hash = hashOf(id)
    const at = this.find(this.table, id, hash) ?? (this.previous ? this.find(this.previous, id, hash) : undefined)
    return at === undefined ? undefined : this.recordAt(at)
  }

  /** Adds a record whose id is not here yet; false (and nothing added) when it is. */
  addNew(record: R): boolean {
    return this.addOrFind(record) === undefined
  }

  /** Adds a record whose id is not here yet and answers undefined; when it is, answers the record here (nothing added): one lookup for a put. */
  addOrFind(record: R): R | undefined {
    this.moveSome()
    const id = this.idOf(record)
    const hash = hashOf(id)
    const found = this.find(this.table, id, hash) ?? (this.previous ? this.find(this.previous, id, hash) : undefined)
    if (found !== undefined) return this.recordAt(found)
    const at = this.count++
    if ((at & BLOCK_MASK) === 0) this.blocks.push([])
    this.blocks[at >>> BLOCK_BITS]!.push(record)
    place(this.table, at, hash)
    // At most half full, so that probes stay short.
    if (this.count * 2 > this.table.hashes.length) this.grow()
    return undefined
  }

  private recordAt(at: number): R {
    return this.blocks[at >>> BLOCK_BITS]![at & BLOCK_MASK]!
  }

  /** The position of the record with this id, or undefined. */
  private find(table: Table, id: string, hash: number): number | undefined {
    const { slots, hashes, mask } = table
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!
      if (slot === 0) return undefined
      if (hashes[i] === hash && this.idOf(this.recordAt(slot - 1)) === id) return slot - 1
    }
  }

  private grow(): void {
    // The last growth has long finished (n slots move within n / MOVE_STEP calls; the next growth
    // comes n / 2 inserts later), but one is never left half done.
    while (this.previous) this.moveSome()
    this.previous = this.table
    this.moved = 0
    this.table = emptyTable(this.table.hashes.length * 2)
  }

  private moveSome(): void {
    const from = this.previous
    if (!from) return
    // The old table stays as it is until dropped: a lookup tries the new one first, so what it
    // finds in the old one is either not moved yet or the same record.
    const end = Math.min(this.moved + MOVE_STEP, from.slots.length)
    for (let i = this.moved; i < end; i++) if (from.slots[i] !== 0) place(this.table, from.slots[i]! - 1, from.hashes[i]!)
    this.moved = end
    if (end === from.slots.length) this.previous = undefined
  }
}

const BLOCK_BITS = 16
const BLOCK_MASK = (1 << BLOCK_BITS) - 1
const MOVE_STEP = 256

interface Table {
  /** A record's position plus one; 0 for an empty slot. */
  slots: Int32Array
  hashes: Uint32Array
  mask: number
}

const emptyTable = (size: number): Table => ({ slots: new Int32Array(size), hashes: new Uint32Array(size), mask: size - 1 })

function place(table: Table, at: number, hash: number): void {
  let i = hash & table.mask
  while (table.slots[i] !== 0) i = (i + 1) & table.mask
  table.slots[i] = at + 1
  table.hashes[i] = hash
}

/** FNV-1a over the UTF-16 units: ids are random letters and digits, so any spread-out hash does. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return hash >>> 0
}
