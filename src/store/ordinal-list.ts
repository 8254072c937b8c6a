/**
 * A growable, sorted list of record ordinals (positions in a creation-ordered array), in a typed
 * array: 4 bytes an entry and nothing for the garbage collector to trace, which matters when a
 * million records sit in a dozen lists each.
 */
export class OrdinalList {
  private data = new Uint32Array(4)
  length = 0

  at(index: number): number {
    return this.data[index]!
  }

  /** Keeps the list sorted; an ordinal above the last (a new record) is appended. */
  insert(ordinal: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    if (this.length === 0 || this.data[this.length - 1]! < ordinal) {
      this.data[this.length++] = ordinal
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
