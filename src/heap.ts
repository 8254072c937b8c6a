/** An item a `Heap` can find again: the heap keeps its position there (-1 when not in a heap). */
export interface HeapItem {
  heapIndex: number
}

/**
 * A binary min-heap that keeps each item's position, so an item can be removed, or moved after its
 * key changed, in O(log n) instead of a search. The clock keeps its timers in these: one heap per
 * account and one heap of those accounts by their earliest timer.
 */
export class Heap<T extends HeapItem> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  peek(): T | undefined {
    return this.items[0]
  }

  has(item: T): boolean {
    return this.items[item.heapIndex] === item
  }

  push(item: T): void {
    item.heapIndex = this.items.length
    this.items.push(item)
    this.siftUp(item.heapIndex)
  }

  pop(): T | undefined {
    const top = this.items[0]
    if (top) this.remove(top)
    return top
  }

  remove(item: T): boolean {
    if (!this.has(item)) return false
    const index = item.heapIndex
    const last = this.items.pop()!
    item.heapIndex = -1
    if (last !== item) {
      this.place(last, index)
      this.update(last)
    }
    return true
  }

  /** Puts an item whose key changed back in its place (or adds it). */
  update(item: T): void {
    if (!this.has(item)) return this.push(item)
    this.siftUp(item.heapIndex)
    this.siftDown(item.heapIndex)
  }

  /** Every item, in no particular order. */
  values(): readonly T[] {
    return this.items
  }

  clear(): void {
    for (const item of this.items) item.heapIndex = -1
    this.items.length = 0
  }

  private place(item: T, index: number): void {
    this.items[index] = item
    item.heapIndex = index
  }

  private siftUp(index: number): void {
    const item = this.items[index]!
    while (index > 0) {
      const parentIndex = (index - 1) >> 1
      const parent = this.items[parentIndex]!
      if (!this.before(item, parent)) break
      this.place(parent, index)
      index = parentIndex
    }
    this.place(item, index)
  }

  private siftDown(index: number): void {
    const item = this.items[index]!
    const length = this.items.length
    for (;;) {
      const left = 2 * index + 1
      if (left >= length) break
      const right = left + 1
      const child = right < length && this.before(this.items[right]!, this.items[left]!) ? right : left
      if (!this.before(this.items[child]!, item)) break
      this.place(this.items[child]!, index)
      index = child
    }
    this.place(item, index)
  }
}
