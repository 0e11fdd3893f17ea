// The community journey in a real browser against the real binary: a member analyses a real
// photo, opens My Setups and publishes it with one extra photo (publishing it again is refused
// with a way to the post, and My Setups still lists it); a second member's vote, report and
// comment are refused with the reason until their address is verified, then they vote, comment
// and report; the leaderboard, My Posts and the public profile show it; the owner's bell counts
// it and leads to the setup's own page, where the owner, verified too, reports the comment,
// answers it (a visitor reads both), takes the answer back and then removes the question; the
// owner edits the post and deletes it.
// A visitor is asked to log in to vote. axe checks every page and dialog on the way.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { analyzePhoto, e2eSession, eventually, expectAccessible, pngPhoto, SETUP_PHOTO_SKIP, toastsGone } from './support.mjs'


const session = e2eSession(before, after)

async function register(page, email, displayName) {
  const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
    data: { email, password: 'community-password-1', displayName },
  })
  assert.equal(res.status(), 201)
  const me = await page.request.get(`${session.server.baseUrl}/_api/auth/session`)
  return (await me.json()).user
}


function card(page, title) {
  return page.getByTestId('setup-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) })
}

/** My Setups through the avatar menu (inside the app, keeping its cache), showing the analysis. */
async function openMySetups(page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'My Setups' }).click()
  await page.getByTestId('setup-card').first().waitFor()
  await eventually(() => page.getByText('No setups yet').count(), 0)
}

describe('the community', { skip: SETUP_PHOTO_SKIP }, () => {
  it('publishes, votes, reports, ranks, edits and deletes a setup', { timeout: 600_000 }, async () => {
    const stamp = Date.now()
    const title = `Violet Battlestation ${stamp}`
    const { page } = await session.freshPage({}, { consent: true })
    const owner = await register(page, `owner${stamp}@example.com`, 'Violet Owner')
    await analyzePhoto(page)

    // My Setups, then Community in the same app (one cache): both read the user's analyses.
    await openMySetups(page)
    await page.getByRole('banner').getByRole('link', { name: 'Community' }).click()

    // Publish the analysis with one extra photo.
    await page.getByRole('heading', { name: 'Community Setups' }).waitFor()
    await page.getByRole('heading', { name: 'No Setups Found' }).or(page.getByTestId('community-setups')).waitFor()
    await expectAccessible(page, assert, '/community')
    await page.getByRole('button', { name: 'Upload Your Setup' }).click()
    const publish = page.getByRole('dialog', { name: 'Publish Setup to Community' })
    await publish.getByRole('button', { name: /Choose analysis/ }).first().click()
    await publish.getByTestId('photo-input').setInputFiles({ name: 'extra.png', mimeType: 'image/png', buffer: pngPhoto() })
    await publish.getByTestId('photo-item').waitFor()
    await publish.getByLabel('Title (optional)').fill(title)
    await publish.getByLabel('Description (optional)').fill('Dual monitors, purple light.')
    await expectAccessible(page, assert, 'the publish dialog')
    await publish.getByRole('button', { name: 'Publish to Community' }).click()
    await page.getByText('Setup uploaded successfully!').waitFor({ timeout: 60_000 })
    await publish.waitFor({ state: 'detached' })
    await card(page, title).waitFor()

    // Nobody votes on their own setup, and the buttons look it.
    const ownUpvote = card(page, title).getByRole('button', { name: 'You cannot vote on your own setup' }).first()
    await eventually(() => ownUpvote.isDisabled(), true)
    // eslint-disable-next-line no-undef -- runs in the page
    const look = await ownUpvote.evaluate((button) => ({ cursor: getComputedStyle(button).cursor, opacity: Number(getComputedStyle(button).opacity) }))
    assert.equal(look.cursor, 'not-allowed')
    assert.ok(look.opacity < 0.6, `a disabled vote button is dimmed (opacity ${look.opacity})`)

    // The same analysis again, from a fresh page where the dialog reads the analyses first:
    // refused, with the way to the post; then My Setups in the same app still lists it.
    await page.goto('/community')
    await page.getByRole('button', { name: 'Upload Your Setup' }).click()
    await publish.getByRole('button', { name: /Choose analysis/ }).first().click()
    await publish.getByRole('button', { name: 'Publish to Community' }).click()
    const refused = publish.getByRole('alert')
    await refused.getByText('You have already published this analysis to Community.').waitFor()
    await refused.getByRole('link', { name: 'View your post' }).click()
    await page.waitForURL('**/my-posts')
    await page.getByRole('button', { name: `View ${title}` }).waitFor()
    await openMySetups(page)

    // A visitor may look but is asked to log in to vote.
    {
      const { page: visitor, context } = await session.freshPage({}, { consent: true })
      await visitor.goto('/community')
      const visitorCard = card(visitor, title)
      await visitorCard.waitFor()
      await eventually(() => visitor.getByRole('button', { name: 'Upload Your Setup' }).isDisabled(), true)
      await visitorCard.getByTitle('Login to vote').first().click()
      await visitor.getByRole('dialog', { name: 'Welcome to SetupIQ' }).waitFor()
      await context.close()
    }

    // A second member: voting, reporting and commenting need a verified address. The refused
    // vote says why under the votes and counts nothing; the report dialog says why and stays.
    const { page: voter, context: voterContext } = await session.freshPage({}, { consent: true })
    await register(voter, `voter${stamp}@example.com`, 'Vera Voter')
    await voter.goto('/community')
    const voterCard = card(voter, title)
    await voterCard.waitFor()
    await voterCard.getByRole('button', { name: 'Upvote' }).click()
    await voterCard.getByRole('alert').filter({ hasText: 'Please verify your email address before voting.' }).waitFor()
    await eventually(() => voterCard.getByTestId('setup-score').innerText(), '0')
    await eventually(() => voterCard.getByRole('button', { name: 'Upvote', pressed: true }).count(), 0)
    await expectAccessible(voter, assert, 'a refused vote')
    await voterCard.getByRole('button', { name: `View ${title}` }).click()
    const detail = voter.getByRole('dialog', { name: title })
    await detail.getByText('SetupIQ Score:', { exact: false }).waitFor()
    await eventually(() => detail.getByTestId('carousel-position').innerText(), '1 / 2')
    await detail.getByRole('button', { name: 'Next photo' }).click()
    await detail.getByTestId('carousel-position').filter({ hasText: '2 / 2' }).waitFor()
    await detail.getByRole('button', { name: 'Next photo' }).click()
    await detail.getByTestId('carousel-position').filter({ hasText: '1 / 2' }).waitFor()

    await detail.getByRole('button', { name: 'Report' }).click()
    const refusedReport = voter.getByRole('dialog', { name: 'Report Content' })
    await refusedReport.getByLabel('Spam').check()
    await refusedReport.getByRole('button', { name: 'Submit Report' }).click()
    await refusedReport.getByRole('alert').filter({ hasText: 'Please verify your email address before reporting.' }).waitFor()
    await refusedReport.getByRole('button', { name: 'Cancel' }).click()
    await refusedReport.waitFor({ state: 'detached' })

    // Once the address is verified, the upvote counts, and the comment shows under the setup
    // with its link made safe to follow, and the card counts it.
    const question = 'What monitor arm is that? https://arms.example/lx'
    await detail.getByLabel('Add a comment').fill(question)
    await detail.getByRole('button', { name: 'Post Comment' }).click()
    await detail.getByText('Please verify your email address before commenting.').waitFor()
    const mail = (await session.server.outbox()).findLast((m) => m.to.text === `voter${stamp}@example.com` && m.subject === 'Verify your SetupIQ e-mail address')
    await voter.goto(mail.text.split(/\s+/).find((word) => word.includes('/verify-email?token=')))
    await voter.getByRole('heading', { name: 'E-mail Verified' }).waitFor()
    await voter.goto('/community')
    await voterCard.getByRole('button', { name: 'Upvote' }).click()
    await voterCard.getByRole('button', { name: 'Upvote', pressed: true }).waitFor()
    await eventually(() => voterCard.getByTestId('setup-score').innerText(), '1')
    await eventually(() => voterCard.getByRole('alert').count(), 0)
    await voterCard.getByRole('button', { name: `View ${title}` }).click()
    await detail.getByLabel('Add a comment').fill(question)
    await detail.getByRole('button', { name: 'Post Comment' }).click()
    const asked = detail.getByTestId('comment').filter({ hasText: 'What monitor arm is that?' })
    await asked.waitFor()
    await eventually(() => asked.getByRole('link', { name: 'https://arms.example/lx' }).getAttribute('rel'), 'nofollow ugc noopener')
    await detail.getByRole('heading', { name: 'Comments (1)' }).waitFor()
    await toastsGone(voter)
    await expectAccessible(voter, assert, 'the setup dialog')
    await detail.getByRole('button', { name: 'Report' }).click()
    const report = voter.getByRole('dialog', { name: 'Report Content' })
    // The reasons sit in the dialog without the browser's frame around a fieldset.
    // eslint-disable-next-line no-undef -- runs in the page
    const frame = await report.getByRole('group', { name: 'Reason' }).evaluate((group) => getComputedStyle(group).borderTopStyle)
    assert.equal(frame, 'none')
    await report.getByLabel('Harassment').check()
    await report.getByLabel('Spam').check()
    await report.getByLabel('Additional details (optional)').fill('Just testing the report flow.')
    await expectAccessible(voter, assert, 'the report dialog')
    await report.getByRole('button', { name: 'Submit Report' }).click()
    await voter.getByText('Report submitted').waitFor()
    await report.waitFor({ state: 'detached' })
    await voter.keyboard.press('Escape')
    await detail.waitFor({ state: 'detached' })

    // The leaderboard ranks the owner.
    await voter.getByRole('tab', { name: 'Leaderboard' }).click()
    const board = voter.getByTestId('leaderboard')
    await board.waitFor()
    await eventually(() => board.innerText(), /#1[\s\S]*1 point · 1 setup/)
    await toastsGone(voter)
    await expectAccessible(voter, assert, 'the leaderboard')
    await voterContext.close()

    // My Posts and the public profile show the post, with its comment.
    await page.goto('/my-posts')
    const stats = page.getByTestId('post-stats')
    await page.getByRole('button', { name: `View ${title}` }).waitFor()
    await page.getByText('1 comment ·', { exact: false }).waitFor()
    await eventually(() => stats.innerText(), /Total Posts\s*1/)
    await eventually(() => stats.innerText(), /Total Upvotes\s*1/)
    await expectAccessible(page, assert, '/my-posts')
    await page.goto(`/user/${owner.id}`)
    await page.getByRole('heading', { name: /'s Profile$/ }).waitFor()
    await page.getByTestId('recent-posts').getByRole('heading', { name: title }).waitFor()
    await eventually(() => page.getByTestId('profile-stats').innerText(), /Total Upvotes\s*1/)
    await expectAccessible(page, assert, `/user/${owner.id}`)

    // The owner's bell counts the comment (the only post of the week is no 'top 3': that needs
    // three); the comment's notification leads to the setup's own page and is read there.
    await page.goto('/community')
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).click()
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
    assert.equal(await page.getByText(/reached this week's top 3/).count(), 0)
    await expectAccessible(page, assert, '/notifications')
    await page.getByRole('link', { name: `Vera Voter commented on “${title}”` }).click()
    await page.waitForURL('**/community/setup/*')
    await page.getByRole('heading', { name: title, level: 1 }).waitFor()
    await page.getByTestId('comment').filter({ hasText: 'What monitor arm is that?' }).waitFor()
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor()
    await expectAccessible(page, assert, '/community/setup/{id}')

    // The owner verifies their address (reporting and commenting need it) and reports the
    // comment: the same dialog, asked about the comment.
    const setupUrl = page.url()
    const ownerMail = (await session.server.outbox()).findLast((m) => m.to.text === `owner${stamp}@example.com` && m.subject === 'Verify your SetupIQ e-mail address')
    await page.goto(ownerMail.text.split(/\s+/).find((word) => word.includes('/verify-email?token=')))
    await page.getByRole('heading', { name: 'E-mail Verified' }).waitFor()
    await page.goto(setupUrl)
    await page.getByRole('button', { name: 'Report comment by Vera Voter' }).click()
    const commentReport = page.getByRole('dialog', { name: 'Report Content' })
    await commentReport.getByText('Why are you reporting this comment?').waitFor()
    await commentReport.getByLabel('Spam').check()
    await commentReport.getByRole('button', { name: 'Submit Report' }).click()
    await page.getByText('Report submitted').waitFor()
    await commentReport.waitFor({ state: 'detached' })

    // The owner answers in the thread; a visitor reads question and answer on the setup's page.
    await page.getByRole('button', { name: 'Reply to Vera Voter' }).click()
    await page.getByLabel('Your reply').fill('An Ergotron LX.')
    await page.getByRole('button', { name: 'Post Reply' }).click()
    await page.getByRole('list', { name: 'Replies' }).getByText('An Ergotron LX.').waitFor()
    {
      const { page: reader, context } = await session.freshPage()
      await reader.goto(setupUrl)
      await reader.getByTestId('comment').filter({ hasText: 'What monitor arm is that?' }).waitFor()
      await reader.getByRole('list', { name: 'Replies' }).getByText('An Ergotron LX.').waitFor()
      await eventually(() => reader.getByRole('button', { name: 'Reply to Vera Voter' }).count(), 0, 'visitors read, members answer')
      await context.close()
    }
    // The author takes their answer back.
    await page.getByRole('button', { name: 'Delete comment by you' }).click()
    await page.getByRole('group', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment', exact: true }).click()
    await page.getByText('An Ergotron LX.').waitFor({ state: 'detached' })

    // The owner removes the comment under their setup (an owner may), once confirmed.
    const edited = `${title} v2`
    await page.goto('/community')
    await card(page, title).getByRole('button', { name: '1 comment on', exact: false }).waitFor()
    await card(page, title).getByRole('button', { name: `View ${title}` }).click()
    const ownerDetail = page.getByRole('dialog', { name: title })
    await ownerDetail.getByRole('button', { name: 'Delete comment by Vera Voter' }).click()
    await ownerDetail.getByRole('group', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment', exact: true }).click()
    await ownerDetail.getByText('No comments yet.', { exact: false }).waitFor()

    // The owner edits it: one photo fewer and a new title.
    await ownerDetail.getByRole('button', { name: 'Edit', exact: true }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Your Setup' })
    await eventually(() => edit.getByTestId('photo-item').count(), 2)
    await expectAccessible(page, assert, 'the edit dialog')
    await edit.getByRole('button', { name: 'Remove photo 2' }).click()
    await edit.getByLabel('Title').fill(edited)
    await edit.getByRole('button', { name: 'Save Changes' }).click()
    await page.getByText('Setup updated successfully.').waitFor()
    await card(page, edited).waitFor()
    await card(page, edited).getByRole('button', { name: `View ${edited}` }).click()
    const editedDetail = page.getByRole('dialog', { name: edited })
    await editedDetail.waitFor()
    await eventually(() => editedDetail.getByTestId('carousel-position').count(), 0, 'one photo left')

    // And deletes it, once confirmed.
    await editedDetail.getByRole('button', { name: 'Delete', exact: true }).click()
    const confirmDelete = page.getByRole('dialog', { name: 'Delete Setup' })
    await confirmDelete.getByText('Are you sure you want to delete this setup? This action cannot be undone.').waitFor()
    await expectAccessible(page, assert, 'the delete dialog')
    await confirmDelete.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Setup deleted successfully.').waitFor()
    await card(page, edited).waitFor({ state: 'detached' })
    await page.goto('/my-posts')
    await page.getByRole('heading', { name: 'No Posts Yet' }).waitFor()

    assert.deepEqual(session.problems, [])
  })
})
