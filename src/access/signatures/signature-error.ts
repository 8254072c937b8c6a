/**
 * A signature that cannot be checked as sent (malformed header, a component the request does not
 * have): the verifier turns it into `signature_invalid`, with the base when one could be built.
 */
export class SignatureFormatError extends Error {
  override name = 'SignatureFormatError'
}
