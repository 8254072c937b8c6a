/** A record's `metadata`: string keys and values, as the API takes them. */
export type Metadata = Record<string, string>
