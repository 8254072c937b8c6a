/** The data file cannot be used; the message names the file and, for damage, the position. */
export class StoreLoadError extends Error {
  override name = 'StoreLoadError'
}
