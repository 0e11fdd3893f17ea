// Fails when the committed generated API types differ from what openapi.json generates.
import { readFileSync, rmSync } from 'node:fs'

const [committed, fresh] = process.argv.slice(2)
const same = readFileSync(committed, 'utf8') === readFileSync(fresh, 'utf8')
rmSync(fresh)
if (!same) {
  console.error(`${committed} is out of date: run \`npm run gen:api\` (or \`make openapi\`).`)
  process.exit(1)
}
console.log(`${committed} matches openapi/openapi.json`)
