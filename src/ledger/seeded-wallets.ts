import { generateAddress } from '../chain/networks.js'
import { newId } from '../ids.js'
import type { Network } from '../model/networks.js'
import { createRng, type RngState } from '../rng.js'

/**
 * What a seeded account's generator draws for its fixture wallets, in the order seeding draws it:
 * each institutional wallet's id and address, the number that seeds its people's names
 * (seeded-people.ts), each user wallet's id and address; and where the generator then stands.
 */
export interface SeededDraws {
  ids: readonly string[]
  addresses: readonly string[]
  peopleSeed: number
  state: RngState
}

/**
 * The draws of the default account under the default seed and the package's fixtures: every start
 * seeds that account, and drawing them hashed its generator's seed (SHA-256) and made 14 addresses,
 * EIP-55 checksums (keccak as WebAssembly, compiled for them) and base58 and base32 encodings among
 * them, all in code that runs cold at a start: about 4 % of a cold start (issue 33).
 * test/unit/seeded-wallets.test.ts checks each entry against the generator, and that a default start
 * uses this one (and prints the entry to put here when the default seed or the fixtures change).
 */
const DRAWN: ReadonlyMap<string, SeededDraws> = new Map([
  [
    'wallet-sandbox\u0000acct_sandboxDefaultAccount000\u0000polygon,polygon,polygon,ethereum,ethereum,ethereum,stellar,stellar,solana,solana\u0000polygon,solana,ethereum,stellar',
    {
      ids: [
        'wal_RJ404a9s9n2lY76hzhRKhSUF', 'wal_i2klmhUjLyIi2Fgm0zEBYSxw', 'wal_XNH3Bc7E4Cnb7JeAvwuwDnmJ', 'wal_G0xBwdy6fhH2pyJYgA0qqBO4', 'wal_rHbMCj5yLvgMNU5DyAVoO0oc',
        'wal_cvvLCxmIWKvOvzOAteU2eMsY', 'wal_Aha9CX9HRl4ZXEqLeDRnl6tG', 'wal_4mb3kyyQ92vIHN82Y1BON75C', 'wal_EJq5jYGzSvTBGeICJi4bqA98', 'wal_To7xfjsctxipmaOVlLE0zoQY',
        'wal_I4YvLk0VEDNjvd4Fnn32YNbK', 'wal_5RJsTOap87I3g93hCf6W8Gz0', 'wal_HGWFmdVIzdbBdd11p6IIGHT8', 'wal_7hfJNy3btshoKgcC5dVuw4QX',
      ],
      addresses: [
        '0x4A1b1Cf0936d28468e23Cf0a499aFFA8145cD510',
        '0x40a2c03B2249deFAb931E4da7E8E804CCD5FF008',
        '0x917B63E7A04A0397Ffd41495b290A7AA908C7615',
        '0x8C8736f1Bd857d1e0388B415458d3A39BC9Ff74c',
        '0xcbB5B9306cf0D4b0180b9A2dCa5ae815404501f6',
        '0xb7f40Fca3d94af8F31EA7d5fB8f8CF18ae02E057',
        'GACQ2HLLHVYKS3JOM5UN4LHJKIIMI2VMPOM7MENZVYFXHT6KNTWQ3MQE',
        'GBIJ5XFHSMSVIQVAC4OSWHGYG2GVSHDKU5H3CAC3HZJ5MHSAOQWNASPQ',
        'E3PbDpN1p4uvJ24uvriVvjbTSkuj8k2KK8nZvgW5EnGV',
        '5TirBLPcuz3bNphsZbexD1uEUpmeRLTAL4fGNes9rQmW',
        '0xBf78669E3cc1FBD71aa17f3620FF5386e57C0f3a',
        'BGhrpWV524DJ88QMiV64txcLHXHvoXbduC1Lf1CfJemq',
        '0xbb4aA1dD97433cC7E3a018FD84CDAa286853d5D1',
        'GCWUOKQW23HSFDOETTPTIW335R4TYB27RRKQF5XSDWUPCZXUN7IPFVUO',
      ],
      peopleSeed: 1040001441,
      state: [3742675010, 1561941937, 1844266600, 2451127131],
    },
  ],
])

const keyOf = (seed: string, origin: string, institutional: readonly Network[], user: readonly Network[]) => [seed, origin, institutional.join(','), user.join(',')].join('\u0000')

/** The draws of the account that `origin` (its id or first key) seeds under `seed`, with these wallets' networks. */
export function seededDraws(seed: string, origin: string, institutional: readonly Network[], user: readonly Network[]): SeededDraws {
  return DRAWN.get(keyOf(seed, origin, institutional, user)) ?? drawSeeded(seed, origin, institutional, user)
}

/** The draws made from the generator itself. */
export function drawSeeded(seed: string, origin: string, institutional: readonly Network[], user: readonly Network[]): SeededDraws {
  const rng = createRng(seed, 'account', origin)
  const ids: string[] = []
  const addresses: string[] = []
  const draw = (network: Network) => {
    ids.push(newId('wal', rng))
    addresses.push(generateAddress(network, rng))
  }
  institutional.forEach(draw)
  const peopleSeed = rng.uint32()
  user.forEach(draw)
  return { ids, addresses, peopleSeed, state: rng.state() }
}

/** Each entry of the table, as the arguments of `seededDraws`. */
export const drawnAccounts = (): Array<[string, string, Network[], Network[]]> =>
  [...DRAWN.keys()].map((key) => {
    const [seed, origin, institutional, user] = key.split('\u0000') as [string, string, string, string]
    return [seed, origin, institutional.split(',') as Network[], user.split(',') as Network[]]
  })
