import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleSetup } from '../testFixtures'
import { CommentThread } from './CommentThread'

const comment = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  parentId: null,
  deleted: false,
  body: 'Nice desk',
  authorId: 2,
  authorUsername: 'Gamer_Gina',
  authorDisplayName: 'Gina',
  authorProfilePicture: null,
  authorIsPro: false,
  createdAt: new Date().toISOString(),
  editedAt: null,
  mine: false,
  replies: [],
  ...overrides,
})

const page = (comments: unknown[]) => ({
  status: 200,
  body: { comments, pagination: { total: comments.length, limit: 50, offset: 0, hasMore: false } },
})

describe('comment thread', () => {
  it('shows a visitor the thread as plain text with safe links, replies and deleted comments', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/comments': page([
        comment({
          body: 'Arm: https://arms.example/lx <b>bold</b>',
          replies: [comment({ id: 2, parentId: 1, body: 'Thanks!', authorDisplayName: 'Pete' })],
        }),
        comment({ id: 3, deleted: true, body: null, authorId: null, authorDisplayName: null, authorUsername: null, replies: [comment({ id: 4, parentId: 3, body: 'Still here' })] }),
      ]),
    })
    renderApp(<CommentThread setup={sampleSetup()} />)
    const link = await screen.findByRole('link', { name: 'https://arms.example/lx' })
    expect(link).toHaveAttribute('rel', 'nofollow ugc noopener')
    expect(screen.getByText('<b>bold</b>', { exact: false })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Comments (3)' })).toBeInTheDocument()
    const [first] = screen.getAllByRole('list', { name: 'Replies' })
    expect(within(first!).getByText('Thanks!')).toBeInTheDocument()
    expect(screen.getByText('[deleted]')).toBeInTheDocument()
    expect(screen.getByText('Still here')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Log in to comment' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Reply/ })).not.toBeInTheDocument()
  })

  it('keeps a paste longer than 1000 characters whole and says how much to remove', async () => {
    const server = mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/community/comments': page([]) })
    renderApp(<CommentThread setup={sampleSetup()} />)
    const box = await screen.findByLabelText('Add a comment')
    const long = 'é'.repeat(1250)
    await userEvent.click(box)
    await userEvent.paste(long)
    expect(box).toHaveValue(long)
    expect(box).toHaveAccessibleDescription('1250/1000: remove 250 characters to post this.')
    await userEvent.click(screen.getByRole('button', { name: 'Post Comment' }))
    expect(await screen.findByText('Comment must be between 1 and 1000 characters.')).toBeInTheDocument()
    expect(box).toHaveValue(long)
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0)
    // Emoji count as one character each, as the server counts them.
    await userEvent.clear(box)
    await userEvent.paste('🎮'.repeat(1000))
    expect(box).toHaveAccessibleDescription('1000/1000')
  })

  it('lets a member comment and reply, and shows what the server refuses under the box', async () => {
    let posts = 0
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/comments': page([comment()]),
      'GET /_api/community/setups': { status: 200, body: { setups: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false }, reportedByYou: 0 } },
      'POST /_api/community/comment': () =>
        ++posts === 1
          ? { status: 403, body: { error: 'Please verify your email address before commenting.', code: 'forbidden' } }
          : { status: 200, body: { success: true, commentId: 9 } },
    })
    renderApp(<CommentThread setup={sampleSetup()} />)
    const box = await screen.findByLabelText('Add a comment')
    await userEvent.click(screen.getByRole('button', { name: 'Post Comment' }))
    expect(await screen.findByText('Comment must be between 1 and 1000 characters.')).toBeInTheDocument()
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    await userEvent.type(box, '  What arm is that?  ')
    await userEvent.click(screen.getByRole('button', { name: 'Post Comment' }))
    expect(await screen.findByText('Please verify your email address before commenting.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Post Comment' }))
    await waitFor(() => expect(box).toHaveValue(''))
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { setupId: 7, body: 'What arm is that?' },
      { setupId: 7, body: 'What arm is that?' },
    ])

    await userEvent.click(screen.getByRole('button', { name: 'Reply to Gina' }))
    await userEvent.type(screen.getByLabelText('Your reply'), 'Same question')
    await userEvent.click(screen.getByRole('button', { name: 'Post Reply' }))
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(3))
    expect(server.calls.filter((c) => c.method === 'POST')[2]?.body).toEqual({ setupId: 7, body: 'Same question', parentId: 1 })
  })

  it('lets the author edit within the hour and delete after confirming', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/comments': page([comment({ mine: true, authorId: 1 }), comment({ id: 5, createdAt: '2020-01-01T00:00:00Z', mine: true, authorId: 1 })]),
      'GET /_api/community/setups': { status: 200, body: { setups: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false }, reportedByYou: 0 } },
      'POST /_api/community/comment/edit': { status: 200, body: { success: true } },
      'POST /_api/community/comment/delete': { status: 200, body: { success: true } },
    })
    renderApp(<CommentThread setup={sampleSetup()} />)
    const [fresh, old] = await screen.findAllByTestId('comment')
    expect(within(old!).queryByRole('button', { name: 'Edit comment' })).not.toBeInTheDocument()
    await userEvent.click(within(fresh!).getByRole('button', { name: 'Edit comment' }))
    const editBox = within(fresh!).getByLabelText('Edit your comment')
    await userEvent.clear(editBox)
    await userEvent.type(editBox, 'Nicer desk')
    await userEvent.click(within(fresh!).getByRole('button', { name: 'Save Comment' }))
    await waitFor(() => expect(server.calls.find((c) => c.path === '/_api/community/comment/edit')?.body).toEqual({ commentId: 1, body: 'Nicer desk' }))

    await userEvent.click(within(old!).getByRole('button', { name: 'Delete comment by you' }))
    const confirm = within(old!).getByRole('group', { name: 'Delete this comment?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete comment' }))
    await waitFor(() => expect(server.calls.find((c) => c.path === '/_api/community/comment/delete')?.body).toEqual({ commentId: 5 }))
  })

  it('closes the confirmation once the comment is deleted, its replies staying under [deleted]', async () => {
    let deleted = false
    const reply = comment({ id: 6, parentId: 5, body: 'Agreed' })
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/comments': () => page([deleted
        ? comment({ id: 5, deleted: true, body: null, authorId: null, authorDisplayName: null, authorUsername: null, replies: [reply] })
        : comment({ id: 5, mine: true, authorId: 1, body: 'My own', replies: [reply] })]),
      'GET /_api/community/setups': { status: 200, body: { setups: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false }, reportedByYou: 0 } },
      'POST /_api/community/comment/delete': () => { deleted = true; return { status: 200, body: { success: true } } },
    })
    renderApp(<CommentThread setup={sampleSetup()} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Delete comment by you' }))
    await userEvent.click(within(screen.getByRole('group', { name: 'Delete this comment?' })).getByRole('button', { name: 'Delete comment' }))
    await waitFor(() => expect(screen.queryByText('My own')).not.toBeInTheDocument())
    expect(screen.queryByRole('group', { name: 'Delete this comment?' })).not.toBeInTheDocument()
    expect(screen.getByText('[deleted]')).toBeInTheDocument()
    expect(screen.getByText('Agreed')).toBeInTheDocument()
    expect(server.calls.filter((c) => c.path === '/_api/community/comment/delete')).toHaveLength(1)
  })

  it('counts every comment shown in its heading, replies included and deleted ones aside, as the card does', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/comments': page([
        comment({ id: 1, replies: [comment({ id: 2, parentId: 1, body: 'Thanks' })] }),
        comment({ id: 3, body: 'Love the lamp' }),
        comment({ id: 4, deleted: true, body: null, authorId: null, authorDisplayName: null, authorUsername: null, replies: [comment({ id: 5, parentId: 4, body: 'Still here' })] }),
      ]),
    })
    renderApp(<CommentThread setup={sampleSetup({ commentCount: 4 })} />)
    await screen.findByText('Still here')
    expect(screen.getByRole('heading', { name: 'Comments (4)' })).toBeInTheDocument()
  })

  it("lets a member report another's comment with a reason, never their own", async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/comments': page([comment(), comment({ id: 5, mine: true, authorId: 1, body: 'My own' })]),
      'POST /_api/community/comment/report': { status: 200, body: { success: true, counted: true } },
    })
    renderApp(<CommentThread setup={sampleSetup()} />)
    const [theirs, mine] = await screen.findAllByTestId('comment')
    expect(within(mine!).queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument()
    await userEvent.click(within(theirs!).getByRole('button', { name: 'Report comment by Gina' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report Content' })
    expect(within(dialog).getByText('Why are you reporting this comment?')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }))
    await userEvent.type(within(dialog).getByLabelText('Additional details (optional)'), 'A scam link')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Report' }))
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/_api/community/comment/report')?.body).toEqual({ commentId: 1, reason: 'spam', additionalDetails: 'A scam link' }),
    )
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report Content' })).not.toBeInTheDocument())
  })
})
