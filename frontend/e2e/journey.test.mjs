// The main account journey in a real browser against the real binary, plus the shell's
// edges: cookie consent, Not Found, the /privacy redirect, the mobile menu, the guard.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { e2eSession, eventually, expectAccessible, pngPhoto } from './support.mjs'

const session = e2eSession(before, after)
const freshPage = (options, flags) => session.freshPage(options, flags)

async function openAccountMenu(page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  return page.getByRole('menu')
}

describe('a new user', () => {
  it('registers, edits the profile, resets the password and deletes the account', async () => {
    const { context, page } = await freshPage()
    const email = `gamer${Date.now()}@example.com`

    await page.goto('/')
    await assert.doesNotReject(page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor())
    await page.waitForFunction((title) => globalThis.document.title === title, 'SetupIQ · Gaming Setup Analyzer')
    assert.equal(await page.title(), 'SetupIQ · Gaming Setup Analyzer')
    await page.getByRole('button', { name: 'Accept' }).click()
    await expectAccessible(page, assert, 'home')

    // Register.
    await page.getByRole('banner').getByRole('button', { name: 'Get Started' }).click()
    const dialog = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await dialog.waitFor()
    await expectAccessible(page, assert, 'auth dialog')
    await dialog.getByLabel('Display Name').fill('Pixel Pete')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password', { exact: true }).fill('first-password-1')
    await dialog.getByRole('button', { name: /Create Account/ }).click()
    await dialog.waitFor({ state: 'hidden' })
    let menu = await openAccountMenu(page)
    await eventually(() => menu.getByText(email).count(), 1)
    await eventually(() => menu.getByTestId('credits-badge').innerText(), '3 Credits')

    // Change the username on the profile.
    await menu.getByRole('menuitem', { name: 'My Profile' }).click()
    await page.getByRole('heading', { name: 'Pixel Pete' }).waitFor()
    await eventually(() => page.getByText('Free Member').count(), 1)
    await expectAccessible(page, assert, 'profile')
    await page.getByRole('button', { name: 'Edit display name' }).click()
    const displayName = page.getByLabel('Display name')
    await displayName.fill('   ')
    await displayName.blur()
    await page.getByText('Name is required').waitFor()
    await displayName.fill('Pixel Pete 👾')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Profile updated successfully!').waitFor()
    await page.getByRole('heading', { name: 'Pixel Pete 👾' }).waitFor()
    await eventually(() => page.getByTestId('display-name').innerText(), 'Pixel Pete 👾')
    // The next save says the same: this one's toast goes first.
    await page.getByText('Profile updated successfully!').waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Edit username' }).click()
    const username = page.getByLabel('Username')
    await username.fill('ab')
    await username.blur()
    await page.getByText('Username must be at least 3 characters long.').waitFor()
    await username.fill('Rig_Master_3000')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Profile updated successfully!').waitFor()
    await eventually(() => page.getByTestId('username').innerText(), 'Rig_Master_3000')

    // Upload a photo.
    await page.locator('#profile-photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngPhoto() })
    await page.getByText('Profile picture updated successfully!').waitFor()
    const avatar = page.locator('.avatar-lg img')
    await avatar.waitFor()
    await eventually(() => avatar.getAttribute('src'), /^\/media\/avatars\/[0-9a-f]+\.jpg$/)
    const picture = await page.request.get(await avatar.getAttribute('src'))
    assert.equal(picture.headers()['content-type'], 'image/jpeg')

    // Log out, log back in.
    menu = await openAccountMenu(page)
    await menu.getByRole('menuitem', { name: 'Log Out' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).waitFor()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).click()
    const login = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await login.getByLabel('Email').fill(email)
    await login.getByLabel('Password', { exact: true }).fill('wrong-password')
    await login.getByRole('button', { name: 'Log In' }).click()
    await login.getByText('Invalid email or password.').waitFor()
    await login.getByLabel('Password', { exact: true }).fill('first-password-1')
    await login.getByRole('button', { name: 'Log In' }).click()
    await login.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Account menu' }).waitFor()

    // Forgot the password: log out, ask for a link.
    menu = await openAccountMenu(page)
    await menu.getByRole('menuitem', { name: 'Log Out' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).click()
    await page.getByRole('button', { name: 'Forgot Password?' }).click()
    const forgot = page.getByRole('dialog')
    await forgot.getByLabel('Email').fill(email)
    await forgot.getByRole('button', { name: 'Send Reset Link' }).click()
    await forgot.getByText('If an account exists with that email, you will receive a password reset link shortly. Please check your inbox.').waitFor()
    await forgot.getByRole('button', { name: 'Back to Login' }).click()
    await page.keyboard.press('Escape')

    // Open the link from the outbox and set a new password.
    // (The sign-up's verification e-mail came first.)
    const mail = (await session.server.outbox()).find((m) => m.subject === 'Reset your SetupIQ password')
    assert.equal(mail.to.text, email)
    const link = mail.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0]
    assert.ok(link, mail.text)
    assert.ok(link.startsWith(session.server.baseUrl), link)
    await page.goto(link)
    await page.getByTestId('reset-email').waitFor()
    await eventually(() => page.getByTestId('reset-email').innerText(), email)
    await expectAccessible(page, assert, 'reset password')
    await page.getByLabel('New Password', { exact: true }).fill('second-password-2')
    await page.getByLabel('Confirm New Password').fill('different-one')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByText("Passwords don't match").waitFor()
    await page.getByLabel('Confirm New Password').fill('second-password-2')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByRole('heading', { name: 'Password Reset!' }).waitFor()
    await page.getByRole('button', { name: 'Back to Login' }).click()

    // The link works once.
    await page.goto(link)
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    await page.goto('/')

    // Log in with the new password.
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).click()
    const again = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await again.getByLabel('Email').fill(email)
    await again.getByLabel('Password', { exact: true }).fill('second-password-2')
    await again.getByRole('button', { name: 'Log In' }).click()
    await again.waitFor({ state: 'hidden' })

    // A second browser signs in; changing the password on the profile signs it out, not this one.
    const other = await freshPage()
    const signedIn = await other.page.request.post('/_api/auth/login_with_password', { data: { email, password: 'second-password-2' } })
    assert.equal(signedIn.status(), 200)
    await other.page.goto('/profile')
    await other.page.getByRole('heading', { name: 'Pixel Pete' }).waitFor()
    menu = await openAccountMenu(page)
    await menu.getByRole('menuitem', { name: 'My Profile' }).click()
    const change = page.getByRole('form', { name: 'Change password' })
    await change.getByLabel('Current password').fill('not-my-password')
    await change.getByLabel('New password').fill('third-password-3')
    await change.getByRole('button', { name: 'Change Password' }).click()
    await change.getByText('Your current password is incorrect.').waitFor()
    await expectAccessible(page, assert, 'profile with a password error')
    await change.getByLabel('Current password').fill('second-password-2')
    await change.getByRole('button', { name: 'Change Password' }).click()
    await page.getByText('Password changed. Your other devices were signed out.').waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Pixel Pete' }).waitFor()
    await other.page.reload()
    await other.page.getByRole('heading', { name: 'Please Log In' }).waitFor()
    // Signed in there again, then signed out from here with one button.
    const back = await other.page.request.post('/_api/auth/login_with_password', { data: { email, password: 'third-password-3' } })
    assert.equal(back.status(), 200)
    const devices = page.getByRole('list', { name: 'Signed-in devices' })
    await devices.getByText('This device').waitFor()
    await page.getByRole('button', { name: 'Sign Out Everywhere Else' }).click()
    await page.getByText('Signed out of 1 other device.').waitFor()
    await page.waitForFunction(() => globalThis.document.querySelectorAll('ul[aria-label="Signed-in devices"] > li').length === 1)
    await other.page.reload()
    await other.page.getByRole('heading', { name: 'Please Log In' }).waitFor()
    await other.context.close()
    const notice = (await session.server.outbox()).find((m) => m.subject === 'Your SetupIQ password was changed')
    assert.equal(notice?.to.text, email)

    // Download everything the account holds.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download My Data' }).click(),
    ])
    assert.match(download.suggestedFilename(), /^setupiq-data-.+\.json$/)
    const exported = JSON.parse(await readFile(await download.path(), 'utf8'))
    assert.equal(exported.profile.email, email)
    assert.ok(Array.isArray(exported.analyses) && Array.isArray(exported.sessions), Object.keys(exported).join())

    // Delete the account.
    menu = await openAccountMenu(page)
    await menu.getByRole('menuitem', { name: 'Delete Account' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete Account' })
    await confirm.getByText('All your setup analyses').waitFor()
    await expectAccessible(page, assert, 'delete dialog')
    await confirm.getByLabel('Current password').fill('not-my-password')
    await confirm.getByRole('button', { name: 'Delete My Account' }).click()
    await confirm.getByText('Your current password is incorrect.').waitFor()
    await confirm.getByLabel('Current password').fill('third-password-3')
    await confirm.getByRole('button', { name: 'Delete My Account' }).click()
    await page.getByText('Account deleted successfully').waitFor()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/')
    const gone = await page.request.post('/_api/auth/login_with_password', { data: { email, password: 'third-password-3' } })
    assert.equal(gone.status(), 401)
    await context.close()
  })
})

describe('the shell', () => {
  it('remembers an accepted cookie choice', async () => {
    const { context, page } = await freshPage()
    await page.goto('/about')
    const banner = page.getByRole('region', { name: 'Cookie consent' })
    await banner.waitFor()
    await page.getByRole('heading', { level: 1 }).waitFor()
    await expectAccessible(page, assert, 'cookie banner')
    await banner.getByRole('button', { name: 'Accept' }).click()
    await banner.waitFor({ state: 'hidden' })
    assert.equal(await page.evaluate(() => localStorage.getItem('setupiq-cookie-consent')), 'accepted')
    await page.reload()
    await page.getByRole('heading', { level: 1 }).waitFor()
    await eventually(() => page.getByRole('region', { name: 'Cookie consent' }).count(), 0)
    await context.close()
  })

  it('declines cookies with a note that leaves after 5 seconds', async () => {
    const { context, page } = await freshPage()
    await page.clock.install()
    await page.goto('/')
    await page.getByRole('button', { name: 'Decline' }).click()
    const note = page.getByText('Optional cookies declined. Only essential cookies will be used.')
    await note.waitFor()
    assert.equal(await page.evaluate(() => localStorage.getItem('setupiq-cookie-consent')), 'declined')
    await page.clock.fastForward(4000)
    await eventually(() => note.isVisible(), true)
    await page.clock.fastForward(1500)
    await note.waitFor({ state: 'hidden' })
    // The preferences dialog reflects the choice.
    await page.getByRole('button', { name: 'Cookie Settings' }).click()
    await page.getByRole('dialog', { name: 'Cookie Settings' }).getByText('You have declined optional cookies.').waitFor()
    await context.close()
  })

  it('shows Not Found for unknown paths and redirects /privacy', async () => {
    const { context, page } = await freshPage({}, { consent: true })
    await page.goto('/this/does/not/exist')
    await page.getByRole('heading', { name: 'Not Found' }).waitFor()
    await page.getByText('The page you are looking for does not exist.').waitFor()
    await expectAccessible(page, assert, 'not found')
    await page.getByRole('link', { name: 'Go Home' }).click()
    await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()
    await page.goto('/privacy')
    await page.waitForURL('**/privacy-policy')
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor()
    await context.close()
  })

  it('has a working mobile menu at 390 px', async () => {
    const { context, page } = await freshPage({ viewport: { width: 390, height: 844 } }, { consent: true })
    await page.goto('/')
    await eventually(() => page.getByRole('navigation', { name: 'Main' }).isVisible(), false)
    await page.getByRole('button', { name: 'Open menu' }).click()
    const sheet = page.getByRole('dialog', { name: 'Menu' })
    await sheet.waitFor()
    await expectAccessible(page, assert, 'mobile menu')
    await sheet.getByRole('link', { name: 'Tips' }).click()
    await page.getByRole('heading', { name: 'The Ultimate Setup Guide' }).waitFor()
    await sheet.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Get Started' }).click()
    await page.getByRole('dialog', { name: 'Welcome to SetupIQ' }).waitFor()
    await context.close()
  })

  it('guards protected pages and returns after signing in', async () => {
    const { context, page } = await freshPage({}, { consent: true })
    const email = `member${Date.now()}@example.com`
    const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
      data: { email, password: 'member-password', displayName: 'Member' },
    })
    assert.equal(res.status(), 201)
    await context.clearCookies()
    await page.goto('/admin')
    await page.waitForURL('**/login?redirect=%2Fadmin')
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor()
    await expectAccessible(page, assert, 'login page')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('member-password')
    await page.locator('#main').getByRole('button', { name: 'Log In' }).click()
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor()
    await page.getByText('Access denied. Your role (user) lacks required permissions.').waitFor()
    assert.equal(new URL(page.url()).pathname, '/admin')
    await context.close()
  })

  it('sends the contact form to support', async () => {
    const { context, page } = await freshPage({}, { consent: true })
    await page.goto('/contact')
    await page.getByRole('heading', { name: 'Get in Touch' }).waitFor()
    await page.getByLabel('Full Name').fill('P')
    await page.getByLabel('Full Name').blur()
    await page.getByText('Name must be at least 2 characters.').waitFor()
    await page.getByLabel('Full Name').fill('Pixel Pete')
    await page.getByLabel('Email Address').fill('pete@example.com')
    await page.getByRole('textbox', { name: 'Message' }).fill('My cables are a mess, any tips for the desk?')
    await page.getByRole('button', { name: /Send/ }).click()
    await page.getByText('Your message has been sent!').waitFor()
    const mails = await session.server.outbox()
    const support = mails.find((m) => m.subject === 'Contact form: Pixel Pete')
    assert.ok(support, mails.map((m) => m.subject).join(', '))
    assert.match(support.text, /My cables are a mess/)
    assert.equal(support.replyTo.text, 'pete@example.com')
    await context.close()
  })

  it('keeps every static page accessible', async () => {
    const { context, page } = await freshPage({}, { consent: true })
    for (const path of ['/about', '/tips', '/terms', '/privacy-policy', '/impressum', '/affiliate-disclaimer', '/contact', '/community']) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await expectAccessible(page, assert, path)
    }
    await context.close()
  })
})

describe('every page above', () => {
  it('threw no script error and had nothing blocked by the Content-Security-Policy', () => {
    assert.deepEqual(session.problems, [])
  })
})
