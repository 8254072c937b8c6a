/**
 * A growable, sorted list of record ordinals (positions in a creation-ordered array), in a typed
 * array: 4 bytes an entry and nothing for the garbage collector to trace, which matters when a
 * million records sit in a dozen lists each.
 */
export class OrdinalList {
  private data: Uint32Array = new Uint32Array(4)
  length = 0

  /** A list of these ordinals (sorted, no repeats), holding the array itself until it grows. */
  static of(sorted: Uint32Array): OrdinalList {
    const list = new OrdinalList()
    list.data = sorted
    list.length = sorted.length
    return list
  }

  at(index: number): number {
    return this.data[index]!
  }

  /** Keeps the list sorted; an ordinal above the last (a new record) is appended. */
  insert(ordinal: number): void {
    let data = this.data
    const length = this.length
    if (length === data.length) {
      const grown = new Uint32Array(Math.max(length * 2, 4))
      grown.set(data)
      this.data = data = grown
    }
    if (length === 0 || data[length - 1]! < ordinal) {
      data[length] = ordinal
      this.length = length + 1
      return
    }
    const index = this.lowerBound(ordinal)
    if (this.data[index] === ordinal) return
    this.data.copyWithin(index + 1, index, this.length)
    this.data[index] = ordinal
    this.length++
  }

  remove(ordinal: number): void {
    const index = this.lowerBound(ordinal)
    if (index === this.length || this.data[index] !== ordinal) return
    this.data.copyWithin(index, index + 1, this.length)
    this.length--
  }

  private lowerBound(ordinal: number): number {
    let low = 0
    let high = this.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (this.data[mid]! < ordinal) low = mid + 1
      else high = mid
    }
    return low
  }
}
