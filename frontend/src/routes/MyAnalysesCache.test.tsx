import { act, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { MySetupsGrid } from '@/features/analysis/components/HistoryGrids'
import { PublishDialog } from '@/features/community/components/PublishDialog'
import { sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn } from '@/test-utils'

// My Setups and "Upload Your Setup" read the same resource: whichever loads it first, the
// other must find the user's analyses in the shared cache (once, a crash; the other way, "No setups yet").

afterEach(() => vi.unstubAllGlobals())

const analysis = sampleSaved(11, 7.4, '2026-03-14T09:26:53Z')

/** Shows one screen, then the other, in one app (one SWR cache). */
function Both({ first }: { first: 'my-setups' | 'publish' }) {
  const [second, setSecond] = useState(false)
  const mySetups = first === 'my-setups' || second
  const publish = first === 'publish' || second
  return (
    <>
      <button type="button" onClick={() => setSecond(true)}>Open the other</button>
      {mySetups && <MySetupsGrid onDeleted={() => undefined} />}
      <PublishDialog open={publish} onOpenChange={() => undefined} />
    </>
  )
}

async function expectPublishListsIt() {
  const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
  expect(await within(dialog).findByRole('button', { name: /Choose analysis .* rated 7.4\/10/ })).toBeInTheDocument()
}

async function expectMySetupsListsIt() {
  expect(await screen.findAllByTestId('setup-card')).toHaveLength(1)
  expect(screen.queryByText('No setups yet')).not.toBeInTheDocument()
}

it('My Setups first, then Upload Your Setup', async () => {
  mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis] } } })
  renderApp(<Both first="my-setups" />)
  await expectMySetupsListsIt()
  act(() => screen.getByRole('button', { name: 'Open the other', hidden: true }).click())
  await expectPublishListsIt()
})

it('Upload Your Setup first, then My Setups', async () => {
  mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis] } } })
  renderApp(<Both first="publish" />)
  await expectPublishListsIt()
  act(() => screen.getByRole('button', { name: 'Open the other', hidden: true }).click())
  await expectMySetupsListsIt()
})
