/**
 * A value built on its first use and kept from then on: for what a start does not need, such as the
 * zod schemas that validate only a `--fixtures` folder (each schema costs tens of µs to build, and a
 * cold start is counted in milliseconds; docs/benchmarks.md).
 */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
