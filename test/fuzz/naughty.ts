import fc from 'fast-check'

/**
 * Strings that break naive code, in the spirit of the "big list of naughty strings": empty and
 * blank, control characters, unicode edge cases (lone surrogates, combining marks, right-to-left,
 * zero-width, emoji), numbers in disguise, injection attempts, reserved object keys, and lengths
 * at and past the limits the schemas set.
 */
export const NAUGHTY_STRINGS: readonly string[] = [
  '', ' ', '\t', '\r\n', '\u0000', 'a\u0000b', '\u0007\u0008\u001b', '\u007f', '\u0085', '\u00a0', '\u2028\u2029',
  '\ufeff', '\u200b', '\u202e' + 'abc', '\ud800', '\udfff', '\ud83d\ude00', '👩‍👩‍👧‍👦', 'Z̮̞̠͙͔ͅḀ̗̞͈̻̗Ḷ͙͎̯̹̞͓G̻O̭̗̮', 'ﷺ', '田中さんにあげて下さい', 'مرحبا', 'Ω≈ç√∫',
  'undefined', 'null', 'NULL', 'nil', 'NaN', 'Infinity', '-Infinity', 'true', 'false', '0', '-0', '-1', '1e309', '0x10', '1,000.00', '１２３',
  '00', '01', '1.', '.5', '1e3', '10.500000000000000000000001', '99999999999999999999999999999999', '-10.50', '+10.50', '10.50 ', ' 10.50',
  '<script>alert(1)</script>', "'; DROP TABLE wallets; --", '" OR 1=1 --', '${jndi:ldap://x}', '{{7*7}}', '../../etc/passwd', '..', '.', '%00', '%',
  '%E0%A4%A', '\\', '\\u0000', '/', '?', '#', '&', '=', '*', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'wal_', 'wal_000000000000000000000000', 'pay_000000000000000000000000', 'WAL_RJ404A9S9N2LY76HZHRKHSUF', 'sk_live_abcdefgh', 'sk_test_',
  'USDC', 'usdc', 'polygon', 'POLYGON', '0x52908400098527886E0F7030069857D2E4169EE7', '0x52908400098527886e0f7030069857d2e4169ee7',
  '0x52908400098527886E0F7030069857D2E4169EE8', 'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  '2026-01-01T00:00:00.000Z', '2026-02-30T00:00:00Z', '9999-12-31T23:59:59.999Z', 'javascript:alert(1)', 'http://', 'https://exa mple.com',
  'https://example.com/\r\nX-Injected: 1', 'http://user:pw@127.0.0.1:9/x', 'file:///etc/passwd',
  'a'.repeat(40), 'a'.repeat(41), 'a'.repeat(100), 'a'.repeat(101), 'a'.repeat(255), 'a'.repeat(256), 'a'.repeat(500), 'a'.repeat(501), 'a'.repeat(1001), 'x'.repeat(5000),
]

export const naughtyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NAUGHTY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  )
