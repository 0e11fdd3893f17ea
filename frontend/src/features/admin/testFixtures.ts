import type { AdminAccount, HealthReport, LinkProblem, ReportedSetup, Summary } from './api'

/** Server answers of the admin endpoints (tests only). */
export const sampleSummary = (overrides: Partial<Summary> = {}): Summary => ({
  totalClicks: 12345,
  uniqueUsers: 321,
  uniqueSessions: 987,
  estimatedRevenue: 1234.5,
  estimatedRevenueCents: 123450,
  ...overrides,
})

export const sampleProblem = (overrides: Partial<LinkProblem> = {}): LinkProblem => ({
  productId: 7,
  name: 'Cable Tray Basic',
  category: 'Cable Management',
  network: 'Amazon',
  url: 'https://www.amazon.com/dp/B07?tag=setupiq-20',
  health: 'dead',
  verdict: 'dead',
  statusCode: 404,
  finalUrl: null,
  chain: [{ url: 'https://www.amazon.com/dp/B07?tag=setupiq-20', status: 404 }],
  consecutiveFailures: 3,
  isActive: true,
  checkedAt: '2026-03-14T09:26:53Z',
  revenueAtRisk: 42.1,
  revenueAtRiskCents: 4210,
  ...overrides,
})

export const sampleHealth = (overrides: Partial<HealthReport> = {}): HealthReport => ({
  total: 60,
  active: 57,
  inactive: 3,
  neverVerified: 2,
  lastVerificationRun: '2026-03-14T09:26:53Z',
  lastRun: null,
  recentRuns: [],
  problems: [sampleProblem()],
  ...overrides,
})

export const sampleReported = (overrides: Partial<ReportedSetup> = {}): ReportedSetup => ({
  setupId: 31,
  title: 'Neon Den',
  thumbnailUrl: '/media/t.jpg',
  uploaderId: 2,
  uploaderUsername: 'Gamer_Gina',
  hidden: true,
  score: -2,
  publishedAt: '2026-03-10T12:00:00Z',
  reasons: [{ reason: 'spam', count: 2 }],
  reports: [
    { reporterId: 3, reporterUsername: 'Rita', reporterEmail: 'rita@example.com', reason: 'spam', details: 'Advertising a shop', createdAt: '2026-03-12T08:00:00Z' },
    { reporterId: 4, reporterUsername: 'Sam', reporterEmail: 'sam@example.com', reason: 'spam', details: null, createdAt: '2026-03-13T08:00:00Z' },
  ],
  ...overrides,
})

export const sampleAccount = (overrides: Partial<AdminAccount> = {}): AdminAccount => ({
  id: 2,
  email: 'gina@example.com',
  username: 'Gamer_Gina',
  displayName: 'Gina',
  isPro: false,
  emailVerified: false,
  role: 'user',
  credits: 4,
  createdAt: '2026-03-14T09:26:53Z',
  ...overrides,
})
