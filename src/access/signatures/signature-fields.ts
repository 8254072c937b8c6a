import { isInnerList, parseDictionary, type InnerList } from 'structured-headers'
import { SignatureFormatError } from './signature-error.js'

/** One signature of a request: its label, covered components and parameters, and its bytes. */
export interface ChosenSignature {
  label: string
  input: InnerList
  signature: Buffer
  params: { created?: number; expires?: number; keyid?: string; alg?: string; nonce?: string }
}

/**
 * Reads `Signature-Input` and `Signature` (RFC 9421 section 4) with a structured-fields parser.
 * With several signatures, the one whose `keyid` is the key's is checked (else the first).
 */
export function chooseSignature(signatureInput: string, signature: string, keyId: string): ChosenSignature {
  const inputs = parseField('Signature-Input', signatureInput)
  const signatures = parseField('Signature', signature)
  const labels = [...inputs.keys()]
  if (labels.length === 0) throw new SignatureFormatError('Signature-Input is empty')
  const label = labels.find((name) => {
    const member = inputs.get(name)!
    return isInnerList(member) && member[1].get('keyid') === keyId
  }) ?? labels[0]!
  const input = inputs.get(label)!
  if (!isInnerList(input)) throw new SignatureFormatError(`Signature-Input ${label} must be an inner list of components, such as ${label}=("@method" "@target-uri" "authorization");created=…`)
  for (const [component] of input[0]) {
    if (typeof component !== 'string') throw new SignatureFormatError(`Signature-Input ${label} lists components as quoted strings, such as "@method"`)
  }
  const value = signatures.get(label)
  if (value === undefined) throw new SignatureFormatError(`Signature has no member ${label}, the label used in Signature-Input`)
  if (isInnerList(value) || !(value[0] instanceof ArrayBuffer)) throw new SignatureFormatError(`Signature ${label} must be a byte sequence, ${label}=:<base64>:`)
  return { label, input, signature: Buffer.from(value[0]), params: readParams(label, input[1]) }
}

function parseField(name: string, value: string) {
  try {
    return parseDictionary(value)
  } catch (error) {
    throw new SignatureFormatError(`${name} is not a structured-field dictionary: ${(error as Error).message}`)
  }
}

function readParams(label: string, params: InnerList[1]): ChosenSignature['params'] {
  const read: ChosenSignature['params'] = {}
  for (const [name, value] of params) {
    if (name === 'created' || name === 'expires') {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new SignatureFormatError(`Signature-Input ${label}: ;${name} must be an integer (Unix seconds)`)
      read[name] = value
    } else if (name === 'keyid' || name === 'alg' || name === 'nonce') {
      if (typeof value !== 'string') throw new SignatureFormatError(`Signature-Input ${label}: ;${name} must be a quoted string`)
      read[name] = value
    }
  }
  return read
}
