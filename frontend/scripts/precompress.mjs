// Writes `X.br` beside every text asset of the build (dist/assets) that brotli makes
// smaller. The gateway sends it to browsers that accept br (crates/gateway/src/spa.rs):
// compressed once, at the highest quality, instead of gzip on every request.
// Usage: node scripts/precompress.mjs [DIST_DIR]
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants } from 'node:zlib'

const compress = promisify(brotliCompress)
const TEXT = /\.(js|mjs|css|svg|json|txt|map)$/
// Below this a response fits in one packet anyway.
const MIN_BYTES = 1024

const assets = join(process.argv[2] ?? 'dist', 'assets')
const names = (await readdir(assets)).filter((name) => TEXT.test(name))
let written = 0
let before = 0
let after = 0
await Promise.all(
  names.map(async (name) => {
    const bytes = await readFile(join(assets, name))
    if (bytes.length < MIN_BYTES) return
    const br = await compress(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    })
    if (br.length >= bytes.length) return
    await writeFile(join(assets, `${name}.br`), br)
    written += 1
    before += bytes.length
    after += br.length
  }),
)
console.log(`precompress: ${written} of ${names.length} text assets, ${(before / 1024).toFixed(0)} kB -> ${(after / 1024).toFixed(0)} kB of brotli`)
